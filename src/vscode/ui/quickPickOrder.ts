// A QuickPick re-sorts its items by how well their labels match what the user types, which turns a
// price-ordered list into a name-ordered one. `sortByLabel` turns that off; the extension host has it
// on every QuickPick in the versions we support, though the stable typings do not declare it yet.
import type * as vscode from 'vscode';

export function keepItemOrder(pick: vscode.QuickPick<vscode.QuickPickItem>): void {
  (pick as vscode.QuickPick<vscode.QuickPickItem> & { sortByLabel: boolean }).sortByLabel = false;
}
