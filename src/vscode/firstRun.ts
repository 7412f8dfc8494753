// The first activation opens the Compute walkthrough, once per installation (a globalState flag): a new
// user lands on the steps rather than on an empty activity bar. Someone who already has a profile
// (an earlier version, settings sync) is not interrupted.

import { StateKeys, Walkthroughs } from './commandIds';
import * as vscode from 'vscode';

/** What the first-run decision needs from the editor, so tests can drive it. */
export interface FirstRunHost {
  readonly state: Pick<vscode.Memento, 'get' | 'update'>;
  hasProfile(): boolean;
  openWalkthrough(): Thenable<unknown>;
}

/** Opens the walkthrough when this is the first activation and no profile exists; true when it did. */
export async function openWalkthroughOnFirstRun(host: FirstRunHost): Promise<boolean> {
  if (host.state.get<boolean>(StateKeys.walkthroughShown) === true) return false;
  // Recorded before opening: a failure to open must not turn into a walkthrough on every start.
  await host.state.update(StateKeys.walkthroughShown, true);
  if (host.hasProfile()) return false;
  await host.openWalkthrough();
  return true;
}

/** How long VS Code's own startup editor may take to appear after our activation. */
const STARTUP_EDITOR_SETTLE_MS = 3_000;

/**
 * The editor's way to open our walkthrough (`publisher.name#walkthroughId`). On a first start VS Code
 * opens its own welcome walkthrough too, in the same editor, and on some versions (1.104) it lands after
 * ours and replaces it: once startup has settled, if the active editor is a welcome page that is not
 * ours (its title, in every language, names "Compute Toolkit"), ours is opened again, once.
 */
export async function openComputeWalkthrough(extensionId: string, settleMs = STARTUP_EDITOR_SETTLE_MS): Promise<void> {
  const open = (): Thenable<unknown> =>
    vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${Walkthroughs.gettingStarted}`, false);
  await open();
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const active = vscode.window.tabGroups.activeTabGroup.activeTab;
  // A welcome or walkthrough page has no input type the API knows (text, webview, custom, … all do).
  // eslint-disable-next-line no-restricted-syntax -- matched against a tab's title, not shown
  if (active && active.input === undefined && !active.label.includes('Compute Toolkit')) await open();
}
