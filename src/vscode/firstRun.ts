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

/** The editor's way to open our walkthrough (`publisher.name#walkthroughId`). */
export function openComputeWalkthrough(extensionId: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${Walkthroughs.gettingStarted}`, false);
}
