// Answers a multi-step QuickPick / InputBox flow (ui/multiStepInput) in the real VS Code as a user would:
// the input it shows now is changed (an item made active, text typed) and accepted with Enter.

import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';

export type StepInput = vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox;
export const isPick = (input: vscode.QuickInput): input is vscode.QuickPick<vscode.QuickPickItem> => 'items' in input;
export const messageText = (message: string | vscode.InputBoxValidationMessage | undefined): string => (typeof message === 'object' ? message.message : (message ?? ''));

/**
 * Runs a multi-step flow to its end as a user would: the input it shows now is answered by `answer`
 * (which may make an item active or put text in the box, as a click or typing would) and accepted with
 * Enter, again until the flow moves on; an input `answer` leaves alone takes its default.
 */
export async function answerFlow<T>(api: ExtensionApi, flow: () => Thenable<T>, answer: (input: StepInput) => void | Promise<void>): Promise<T> {
  let settled = false;
  const result = Promise.resolve(flow()).finally(() => (settled = true));
  await waitUntil(
    'the flow to end',
    async () => {
      const input = api.surface.stepInput() as StepInput | undefined;
      if (!settled && input) {
        await answer(input);
        // The extension host sends a changed input to the workbench on its next turn: accept after that.
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (api.surface.stepInput() === input) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      return settled;
    },
    { timeoutMs: PATIENCE_MS * 2 },
  );
  return result;
}


/** Presses the title bar's Back on the input showing now, and waits until the flow has moved off it. */
export async function pressBack(api: ExtensionApi, input: vscode.QuickInput): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.quickInputBack');
  await waitUntil('Back to take effect', () => api.surface.stepInput() !== input, { timeoutMs: PATIENCE_MS });
}
