// Driving the VS Code workbench in Chromium with the selectors that hold on 1.104 and 1.139
// (see /work/shared/reference/real-vscode-testing.md).
import type { FrameLocator, Locator, Page } from 'playwright-core';

/** The title of the Compute walkthrough, which opens by itself on the first start (src/vscode/firstRun.ts). */
export const WALKTHROUGH_TITLE = 'Get started with Compute Toolkit';

let walkthroughSeen = false;

/**
 * Waits for the first-run walkthrough (polling, up to `timeoutMs`: a busy machine starts slowly) unless
 * this workbench has shown it already; true once it has been seen. It opens once per workbench, so a
 * check that must not have it pop up over its own steps waits for it first, whichever check runs first.
 */
export async function firstRunWalkthroughSeen(page: Page, timeoutMs = 120_000): Promise<boolean> {
  if (walkthroughSeen) return true;
  walkthroughSeen = await page.getByText(WALKTHROUGH_TITLE).first().waitFor({ state: 'visible', timeout: timeoutMs }).then(() => true, () => false);
  return walkthroughSeen;
}

export async function waitForWorkbench(page: Page, timeoutMs = 120_000): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * Closes a leftover quick pick. Only when one shows: Escape in an editor would clear its selection,
 * which a command like "Ask about Selection" is about to read.
 */
async function closeQuickInput(page: Page): Promise<void> {
  if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
}

/**
 * A workbench ready for a flow on the sandbox's RSA profile: the first-run walkthrough out of the way, the
 * profile connected (on a fresh workbench it connects after activation, and a flow would ask for a profile
 * before that), no editor open. `zh`: the status bar words the profile in Chinese.
 */
export async function readyOnSandboxProfile(page: Page, zh: boolean): Promise<void> {
  await firstRunWalkthroughSeen(page);
  await page.locator('.statusbar-item', { hasText: zh ? '沙盒 (RSA)' : 'Sandbox (RSA)' }).first().waitFor({ state: 'visible', timeout: 180_000 });
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
}

/**
 * The palette row of the command titled `title`: its label is the title itself (an ellipsis optional), or,
 * for a title given without its category, "Category: title". Never a row that only contains the title,
 * such as "Ask in Chat: <title>" (1.139 lists one for any typed text): clicking that runs something else.
 */
export function commandLabel(title: string): RegExp {
  const typed = escapeRegExp(title.replace(/…$/, ''));
  return title.includes(': ') ? new RegExp(`^${typed}…?$`) : new RegExp(`^(?:[^:]+: )?${typed}…?$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Runs a command from the palette by its title ("Category: Title"), clicking its row. A webview that takes
 * the focus as it loads (the chat view right after Open Chat) closes the palette or swallows F1 and the typed
 * title: each try gives the row a few seconds and, when the palette closed or lost the text meanwhile, takes
 * the focus back and asks again, until the deadline. A command whose precondition does not hold (a notebook
 * command before the notebook is the active editor) is not listed: the error names the rows seen instead.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 90_000): Promise<void> {
  const typed = `>${title.replace(/…$/, '')}`;
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input').first();
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  const row = rows.filter({ has: page.locator('.label-name', { hasText: commandLabel(title) }) }).first();
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await closeQuickInput(page);
      await page.keyboard.press('F1');
      await widget.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(typed);
      // The row, or a sign that the palette was taken away (closed, or its text gone) and needs asking again.
      const stillAsked = async (): Promise<boolean> => (await widget.isVisible()) && (await input.inputValue().catch(() => '')) === typed;
      const rowDeadline = Date.now() + 15_000;
      while (!(await row.isVisible()) && Date.now() < rowDeadline && (await stillAsked())) await page.waitForTimeout(100);
      if (await row.isVisible()) {
        await row.click({ timeout: 15_000 });
        return;
      }
      lastError = new Error((await stillAsked()) ? 'no such row' : 'the palette closed or lost the typed title');
    } catch (error) {
      lastError = error;
    }
    await page.keyboard.press('Escape').catch(() => undefined);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()).catch(() => undefined);
  }
  const seen = await rows.locator('.label-name').allInnerTexts().catch(() => []);
  throw new Error(`the palette never listed "${title}" (rows: ${seen.slice(0, 12).join(' | ')}): ${lastError instanceof Error ? lastError.message.split('\n')[0] : String(lastError)}`);
}

/** Waits until the quick pick has faded in (1.139 animates it): a screenshot before shows it see-through. */
export async function quickPickOpaque(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.waitForFunction(() => {
    const widget = document.querySelector('.quick-input-widget');
    return widget !== null && getComputedStyle(widget).opacity === '1';
  }, undefined, { timeout: timeoutMs });
}

/** Clears every toast and the notification center (a running progress stays; only finished ones go). */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => undefined);
}

/** The open quick pick (after a command asked something), or undefined when none shows up in time. */
export async function visibleQuickPick(page: Page, timeoutMs: number): Promise<Locator | undefined> {
  const widget = page.locator('.quick-input-widget');
  try {
    await widget.waitFor({ state: 'visible', timeout: timeoutMs });
    return widget;
  } catch {
    return undefined;
  }
}

export async function openViewContainer(page: Page, title: string): Promise<void> {
  const item = page.locator(`.activitybar .action-item a[aria-label^="${title}"]`).first();
  await item.waitFor({ state: 'visible', timeout: 60_000 }).catch(() => {
    throw new Error(`the activity bar has no "${title}" item (is the extension installed?)`);
  });
  const expanded = await item.locator('xpath=..').getAttribute('aria-expanded').catch(() => null);
  // Clicking an already-open container would close the side bar.
  if (expanded !== 'true') await item.click();
  await page.locator('.sidebar').waitFor({ state: 'visible', timeout: 60_000 });
}

/** Rows of one view (pane) of the side bar, found by the view's name in its header. */
export function viewRows(page: Page, viewName: string): Locator {
  return page
    .locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: viewName }) })
    .locator('.monaco-list-row');
}

/** Waits until some row of the view contains text; returns the rows' texts for messages. */
export async function waitForRow(page: Page, viewName: string, text: string | RegExp, timeoutMs = 60_000): Promise<string[]> {
  const rows = viewRows(page, viewName);
  await rows.filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: timeoutMs }).catch(async () => {
    const seen = await rows.allInnerTexts();
    throw new Error(`no row of view "${viewName}" shows ${String(text)} (rows: ${JSON.stringify(seen.slice(0, 10))})`);
  });
  return rows.allInnerTexts();
}

/** The content of the visible webview (panel content sits two iframes deep). */
export function visibleWebview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview:visible').first().frameLocator('iframe#active-frame');
}

/**
 * The visible webview whose page shows `text`: several can be visible at once (the Compute Chat view in
 * the side bar beside a webview in the editor), and which comes first in the DOM is not defined.
 */
export async function webviewShowing(page: Page, text: string, timeoutMs: number): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = await page.locator('iframe.webview:visible').count();
    for (let index = 0; index < count; index++) {
      const inner = page.frameLocator('iframe.webview:visible').nth(index).frameLocator('iframe#active-frame');
      const shown = await inner.locator('body').innerText({ timeout: 1_000 }).catch(() => '');
      if (shown.includes(text)) return inner;
    }
    if (Date.now() > deadline) throw new Error(`no visible webview showed "${text}" within ${Math.round(timeoutMs / 1000)} s`);
    await page.waitForTimeout(250);
  }
}

/** Text of the visible lines of the active text editor (Monaco renders only what is on screen). */
export async function activeEditorText(page: Page, timeoutMs = 60_000): Promise<string> {
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await lines.waitFor({ state: 'visible', timeout: timeoutMs });
  return (await lines.innerText()).replace(/\u00a0/g, ' ');
}

export async function openFile(page: Page, name: string): Promise<void> {
  await closeQuickInput(page);
  await page.keyboard.press('Control+P');
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: 60_000 });
  await page.keyboard.type(name);
  const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  await row.click();
  await page.locator('.editor-group-container.active .tab.active', { hasText: name }).waitFor({ timeout: 60_000 });
}

/** Drags the side bar's edge so tree labels are readable in screenshots. */
export async function widenSideBar(page: Page, width: number): Promise<void> {
  const sideBar = await page.locator('.part.sidebar').boundingBox();
  if (!sideBar || sideBar.width >= width) return;
  const edge = sideBar.x + sideBar.width;
  for (const sash of await page.locator('.monaco-sash.vertical').all()) {
    const box = await sash.boundingBox();
    if (!box || Math.abs(box.x + box.width / 2 - edge) > 4 || box.height < sideBar.height / 2) continue;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(sideBar.x + width, y, { steps: 5 });
    await page.mouse.up();
    return;
  }
}

/** Picks a row of the quick pick that a command just opened. */
export async function pickQuickPickRow(page: Page, text: string | RegExp, timeoutMs = 60_000): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click();
}
