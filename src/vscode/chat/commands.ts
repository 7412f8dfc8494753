// The chat area's command-table entries: open the panel, start a conversation, search every conversation,
// and the three selection-to-prompt commands.

import * as vscode from 'vscode';
import type { SelectionIntent } from '../../shared/selectionPrompt';
import { Commands, type CommandId } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import type { ChatSession } from './chatSession';
import { searchConversations } from './conversationActions';
import { quoteSelection } from './selection';
import type { ChatSurfaces } from './surfaceTypes';

export interface ChatContext {
  services: ExtensionServices;
  session: ChatSession;
  panel: ChatSurfaces;
}

function selectionEntry(id: CommandId, intent: SelectionIntent, doing: string): CommandEntry<ChatContext> {
  return {
    id,
    doing,
    create:
      ({ services, session, panel }) =>
      () => {
        const settings = services.config.chat;
        return quoteSelection(intent, session, panel, { maxSelectionChars: settings.maxSelectionChars, newConversation: settings.selectionActionsNewConversation });
      },
  };
}

export const CHAT_COMMANDS: readonly CommandEntry<ChatContext>[] = [
  { id: Commands.chatOpen, doing: vscode.l10n.t('Open the chat'), create: ({ panel }) => () => panel.show(false) },
  { id: Commands.chatOpenInEditor, doing: vscode.l10n.t('Open the chat in an editor tab'), create: ({ panel }) => () => panel.open(false) },
  {
    id: Commands.chatNew,
    doing: vscode.l10n.t('Start a new conversation'),
    create: ({ session, panel }) => async () => {
      await session.loaded;
      session.newConversation();
      await panel.show(false);
    },
  },
  { id: Commands.chatSearchConversations, doing: vscode.l10n.t('Search the conversations'), create: ({ session, panel }) => () => searchConversations(session, panel) },
  selectionEntry(Commands.chatAskAboutSelection, 'ask', vscode.l10n.t('Ask about the selection')),
  selectionEntry(Commands.chatExplainSelection, 'explain', vscode.l10n.t('Explain the selection')),
  selectionEntry(Commands.chatFindBugsInSelection, 'findBugs', vscode.l10n.t('Find bugs in the selection')),
];
