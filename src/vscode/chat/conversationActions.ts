// What the user does to whole conversations from the chat's commands and its webview: search every
// conversation, and Delete and Clear, each with Undo.

import * as vscode from 'vscode';
import { NEW_CHAT_TITLE } from '../../shared/webviewStrings';
import type { ChatSession } from './chatSession';
import type { ChatSurfaces } from './surfaceTypes';
import { formatDateTime } from '../ui/dates';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return vscode.l10n.t('{0} B', bytes);
  if (bytes < 1024 * 1024) return vscode.l10n.t('{0} KB', (bytes / 1024).toFixed(1));
  return vscode.l10n.t('{0} MB', (bytes / 1024 / 1024).toFixed(1));
}

/** "2,000 conversations, 12.3 MB on disk". */
export function describeHistory(session: ChatSession): string {
  const { total, bytes } = session.counts;
  return vscode.l10n.t('Conversations: {0}, {1} on disk', total.toLocaleString(vscode.env.language), formatBytes(bytes));
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
export async function searchConversations(session: ChatSession, surfaces: Pick<ChatSurfaces, 'show'>): Promise<void> {
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
      description: formatDateTime(entry.updatedAt),
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
  await surfaces.show(false);
}
