// The chat's error bridge: the buttons of a failed chat turn (src/shared/protocol.ts ChatAction) run
// through the one error-action table (errors/errorActions.ts), as a notification's or a tree row's do.
// Retry is the chat's own: it regenerates the reply.

import * as vscode from 'vscode';
import type { ChatAction } from '../../shared/protocol';
import { actionTarget, runErrorAction, type ActionSituation, type ErrorAction } from '../errors/errorActions';
import type { ExtensionServices } from '../services';
import type { ChatSession } from './chatSession';

/** A chat turn's actions in the one error-action table; Retry regenerates. */
const CHAT_ERROR_ACTIONS = {
  setModelApiKey: { kind: 'setSecret', secret: 'modelApiKey' },
  connectSandbox: { kind: 'connectSandbox' },
  createProfile: { kind: 'createProfile' },
  showLogs: { kind: 'showLogs' },
} as const satisfies Record<string, ErrorAction>;

/** Runs the action of a failed turn's button. */
export async function runChatAction(action: ChatAction, services: ExtensionServices, session: Pick<ChatSession, 'regenerate'>): Promise<string | undefined> {
  const situation = (): ActionSituation => ({ hasProfile: services.profiles.active !== undefined });
  switch (action) {
    case 'retry':
      await session.regenerate();
      return undefined;
    case 'setModelApiKey':
      await runErrorAction(CHAT_ERROR_ACTIONS.setModelApiKey, situation());
      return undefined;
    case 'connectProfile': {
      const choices = [CHAT_ERROR_ACTIONS.connectSandbox, CHAT_ERROR_ACTIONS.createProfile].map((choice) => ({
        action: choice,
        label: actionTarget(choice, situation())?.title ?? '',
      }));
      const picked = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t('Set up a profile for the chat') });
      if (picked) await runErrorAction(picked.action, situation());
      return undefined;
    }
    case 'showLogs':
      await runErrorAction(CHAT_ERROR_ACTIONS.showLogs, situation());
      return undefined;
  }
}
