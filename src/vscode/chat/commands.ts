// The chat area's command-table entries: open the panel, start a conversation, search every conversation,
// and the three selection-to-prompt commands. Also the undoable Delete and Clear the panel offers.

import * as vscode from 'vscode';
import type { SelectionIntent } from '../../shared/selectionPrompt';
import { NEW_CHAT_TITLE } from '../../shared/webviewStrings';
import { Commands, type CommandId } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import type { ChatPanel } from './chatPanel';
import type { ChatSession } from './chatSession';
import { quoteSelection } from './selection';

export interface ChatContext {
  services: ExtensionServices;
  session: ChatSession;
  panel: ChatPanel;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return vscode.l10n.t('{0} B', bytes);
  if (bytes < 1024 * 1024) return vscode.l10n.t('{0} KB', (bytes / 1024).toFixed(1));
  return vscode.l10n.t('{0} MB', (bytes / 1024 / 1024).toFixed(1));
}

/** "2,000 conversations, 12.3 MB on disk". */
export function describeHistory(session: ChatSession): string {
  const { total, bytes } = session.counts;
  return vscode.l10n.t('{0} conversations, {1} on disk', total.toLocaleString(), formatBytes(bytes));
}

/** Shows "Conversation deleted" with Undo; the conversation is kept until the offer is dismissed or expires. */
export async function deleteWithUndo(session: ChatSession, conversationId: string): Promise<void> {
  const pending = session.delete(conversationId);
  const undo = vscode.l10n.t('Undo');
  const picked = await vscode.window.showInformationMessage(vscode.l10n.t('Conversation "{0}" deleted.', pending.title), undo);
  if (picked !== undo) {
    pending.commit();
    return;
  }
  if (!(await pending.undo())) void vscode.window.showWarningMessage(vscode.l10n.t('The conversation can no longer be restored.'));
}

/** Clears the active conversation and offers Undo (its turns come back). */
export async function clearWithUndo(session: ChatSession): Promise<void> {
  const cleared = session.clear();
  const undo = vscode.l10n.t('Undo');
  const picked = await vscode.window.showInformationMessage(vscode.l10n.t('Conversation cleared.'), undo);
  if (picked === undo && !cleared.undo()) void vscode.window.showWarningMessage(vscode.l10n.t('The conversation can no longer be restored.'));
}

/** A quick pick over every conversation, filtered by title and text as the user types. */
export async function searchConversations(session: ChatSession, panel: ChatPanel): Promise<void> {
  await session.loaded;
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
  quickPick.title = vscode.l10n.t('Search conversations ({0})', describeHistory(session));
  quickPick.placeholder = vscode.l10n.t('Words from the title or the text');
  quickPick.matchOnDescription = true;
  let generation = 0;
  const update = async (): Promise<void> => {
    const mine = ++generation;
    quickPick.busy = true;
    const matches = await session.search(quickPick.value);
    if (mine !== generation) return;
    quickPick.busy = false;
    quickPick.items = matches.map((entry) => ({
      id: entry.id,
      label: entry.title === NEW_CHAT_TITLE ? vscode.l10n.t('New chat') : entry.title,
      description: new Date(entry.updatedAt).toLocaleString(),
      detail: vscode.l10n.t('{0} turns', entry.turnCount),
      alwaysShow: true,
    }));
  };
  const picked = await new Promise<string | undefined>((resolve) => {
    quickPick.onDidChangeValue(() => void update());
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]?.id));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
    void update();
  });
  quickPick.dispose();
  if (!picked) return;
  await session.switchTo(picked);
  await panel.show(false);
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
