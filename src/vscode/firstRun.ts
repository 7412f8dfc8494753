// The first activation opens the Compute walkthrough, once per installation (a stored flag): a new
// user lands on the steps rather than on an empty activity bar. Someone who already has a profile
// (an earlier version, settings sync) is not interrupted.

import { Walkthroughs } from './commandIds';
import type { PersistedState } from './persistedState';
import * as vscode from 'vscode';

/** What the first-run decision needs from the editor, so tests can drive it. */
export interface FirstRunHost {
  readonly state: Pick<PersistedState, 'get' | 'update'>;
  hasProfile(): boolean;
  openWalkthrough(): Thenable<unknown>;
}

/** Opens the walkthrough when this is the first activation and no profile exists; true when it did. */
export async function openWalkthroughOnFirstRun(host: FirstRunHost): Promise<boolean> {
  if (host.state.get('walkthroughShown')) return false;
  // Recorded before opening: a failure to open must not turn into a walkthrough on every start.
  await host.state.update('walkthroughShown', true);
  if (host.hasProfile()) return false;
  await host.openWalkthrough();
  return true;
}

/**
 * How long after ours opens VS Code's own startup editor may still land over it. No fixed settle time:
 * on a slow or busy machine VS Code's editor arrives late, so the tabs are watched for this long instead.
 */
const STARTUP_EDITOR_WINDOW_MS = 120_000;

/** Part of our walkthrough tab's title in every language (matched against tab labels, never shown). */
// eslint-disable-next-line no-restricted-syntax -- matched against tab labels, never shown
const OUR_TITLE = 'Compute Toolkit';

/** A welcome or walkthrough page that is not ours: it has no input type the API knows (text, webview, … all do). */
function isOtherWelcome(tab: vscode.Tab): boolean {
  return tab.isActive && tab.input === undefined && !tab.label.includes(OUR_TITLE);
}

/**
 * The editor's way to open our walkthrough (`publisher.name#walkthroughId`). On a first start VS Code
 * opens its own welcome walkthrough too, in the same editor, and on some versions (1.104) it lands after
 * ours and replaces it: when a welcome page that is not ours (its title, in every language, names
 * "Compute Toolkit") becomes the active tab soon after, ours is opened again, once. Watching stops at
 * that, when our page is closed (the user's choice), or after the window. Resolves once ours is open.
 */
export async function openComputeWalkthrough(extensionId: string, windowMs = STARTUP_EDITOR_WINDOW_MS): Promise<void> {
  const open = (): Thenable<unknown> =>
    vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${Walkthroughs.gettingStarted}`, false);
  await open();
  const stop = (): void => {
    clearTimeout(timer);
    watcher.dispose();
  };
  const watcher = vscode.window.tabGroups.onDidChangeTabs((event) => {
    if ([...event.opened, ...event.changed].some(isOtherWelcome)) {
      stop();
      void open();
    } else if (event.closed.some((tab) => tab.label.includes(OUR_TITLE))) {
      stop();
    }
  });
  const timer = setTimeout(stop, windowMs);
  const active = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (active && isOtherWelcome(active)) {
    stop();
    await open();
  }
}
