// axe-core over our webviews in a real VS Code: the chat view (side bar), the chat tab (editor) with a
// rendered reply (code blocks, a table, links), and the Spend page, each in a dark and a light theme.
// Fails on any serious or critical violation, and on the landmark/heading rules named in issue 18.
import * as axeCore from 'axe-core';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { runCommand } from './workbench';

export interface A11yCheckContext {
  page: Page;
  screenshot(name: string): Promise<void>;
}

/** Words of the sandbox's rich reply (test/sandbox/inference/replies.ts): the chat shows a rendered reply. */
const REPLY_MARK = 'Sandbox reply from';
const SPEND_MARK = 'Spend by day';
/** Moderate rules we hold too: the page's structure as a screen reader user meets it. */
const ALSO_ENFORCED = new Set(['landmark-banner-is-top-level', 'page-has-heading-one', 'landmark-one-main', 'region', 'heading-order']);

interface AxeNode { target: unknown[]; failureSummary?: string }
interface AxeViolation { id: string; impact?: string | null; help: string; nodes: AxeNode[] }

/** The Frame of a webview's page, for axe to run in (the workbench's FrameLocator cannot evaluate). */
async function frameOf(webview: FrameLocator): Promise<Frame> {
  const body = await webview.locator('body').elementHandle({ timeout: 60_000 });
  const frame = body ? await body.ownerFrame() : null;
  if (!frame) throw new Error('could not reach the webview page');
  return frame;
}

/** Violations that fail the check, one line each (rule, impact, first elements, summary). */
export function blockingViolations(violations: readonly AxeViolation[]): string[] {
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical' || ALSO_ENFORCED.has(violation.id))
    .map((violation) => {
      const where = violation.nodes.slice(0, 3).map((node) => JSON.stringify(node.target)).join(' ');
      const why = (violation.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200);
      return `${violation.id} (${violation.impact ?? 'n/a'}, ${violation.nodes.length}×): ${violation.help} — ${where} — ${why}`;
    });
}

async function axeRun(frame: Frame): Promise<AxeViolation[]> {
  // Through the debugger protocol, so the webview's CSP (nonce'd scripts only) does not apply.
  await frame.evaluate(axeCore.source);
  return frame.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id, impact: violation.impact, help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  });
}

/** Every visible webview whose page shows `mark`, with its page title (to name it in a failure). */
async function webviewsShowing(page: Page, mark: string, timeoutMs: number, minimum: number): Promise<{ title: string; frame: Frame }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found: { title: string; frame: Frame }[] = [];
    const count = await page.locator('iframe.webview:visible').count();
    for (let index = 0; index < count; index++) {
      const inner = page.frameLocator('iframe.webview:visible').nth(index).frameLocator('iframe#active-frame');
      const shown = await inner.locator('body').innerText({ timeout: 1_000 }).catch(() => '');
      if (!shown.includes(mark)) continue;
      const frame = await frameOf(inner);
      found.push({ title: await frame.title(), frame });
    }
    if (found.length >= minimum) return found;
    if (Date.now() > deadline) throw new Error(`${found.length} visible webview(s) showed "${mark}" within ${Math.round(timeoutMs / 1000)} s, expected ${minimum}`);
    await page.waitForTimeout(250);
  }
}

async function checkPages(page: Page, theme: string, mark: string, minimum: number, problems: string[]): Promise<number> {
  const pages = await webviewsShowing(page, mark, 60_000, minimum);
  // Measure only once each page has the theme's colours (VS Code marks its body vscode-light / vscode-dark).
  for (const { title, frame } of pages) {
    await frame.waitForFunction((kind) => document.body.classList.contains(`vscode-${kind}`), theme, { timeout: 60_000 })
      .catch(() => { throw new Error(`${title} did not take the ${theme} theme`); });
  }
  // A page may still be taking its theme's styles on a busy machine: a page with violations is measured
  // again (polling, up to a minute) and counts only if they stay.
  for (const { title, frame } of pages) {
    const deadline = Date.now() + 60_000;
    let lines = blockingViolations(await axeRun(frame));
    while (lines.length > 0 && Date.now() < deadline) {
      await page.waitForTimeout(2_000);
      lines = blockingViolations(await axeRun(frame));
    }
    for (const line of lines) {
      problems.push(`[${theme}] ${title}: ${line}`);
      console.log(`      a11y [${theme}] ${title}: ${line}`);
    }
  }
  return pages.length;
}

async function checkTheme(page: Page, theme: string, problems: string[], screenshot: (name: string) => Promise<void>): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Compute: Open Chat');
  await runCommand(page, 'Compute: Open Chat in Editor Tab');
  // The side bar view and the editor tab show the same conversation, with the reply of the chat check.
  await checkPages(page, theme, REPLY_MARK, 2, problems);
  await screenshot(`a11y-chat-${theme}`);
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Compute: Show Spend');
  await checkPages(page, theme, SPEND_MARK, 1, problems);
  await screenshot(`a11y-spend-${theme}`);
}

/** The workbench's theme kind: its root element carries `vs` (light) or `vs-dark` (or the high-contrast ones). */
async function themeKind(page: Page): Promise<string> {
  const classes = (await page.locator('.monaco-workbench').first().getAttribute('class')) ?? '';
  return classes.split(/\s+/).includes('vs-dark') ? 'dark' : classes.split(/\s+/).includes('vs') ? 'light' : 'other';
}

/** Picks a built-in colour theme through the palette and waits until the workbench shows its kind. */
async function useTheme(page: Page, name: string, kind: string): Promise<void> {
  if ((await themeKind(page)) === kind) return;
  await runCommand(page, 'Preferences: Color Theme');
  const widget = page.locator('.quick-input-widget');
  // The theme list replaces the command list: wait for it before typing into its filter box.
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Modern' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await widget.locator('input').first().fill(name);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click({ timeout: 60_000 });
  const deadline = Date.now() + 60_000;
  while ((await themeKind(page)) !== kind) {
    if (Date.now() > deadline) throw new Error(`the workbench did not switch to ${name}`);
    await page.waitForTimeout(250);
  }
}

const THEMES = [
  { name: 'Dark Modern', kind: 'dark' },
  { name: 'Light Modern', kind: 'light' },
] as const;

export const webviewsPassAxe = {
  title: 'axe-core: the chat view, the chat tab and the Spend page have no serious or critical violation, in a dark and a light theme',
  async run({ page, screenshot }: A11yCheckContext): Promise<void> {
    const problems: string[] = [];
    const before = await themeKind(page);
    try {
      for (const theme of THEMES) {
        await useTheme(page, theme.name, theme.kind);
        await checkTheme(page, theme.kind, problems, screenshot);
      }
    } finally {
      // Leave the theme the other checks' screenshots were taken in.
      const original = THEMES.find((theme) => theme.kind === before);
      if (original) await useTheme(page, original.name, original.kind).catch(() => undefined);
      await runCommand(page, 'View: Close All Editors').catch(() => undefined);
    }
    if (problems.length > 0) throw new Error(`${problems.length} accessibility violation(s): ${problems.join(' | ')}`);
  },
};
