// Export to Markdown: the conversation as it reads (rendered replies, src/shared/conversationMarkdown.ts)
// saved to a file the user picks, then shown in the Markdown preview. Nothing is written without the
// save dialog's answer; cancelling writes nothing.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { safeFileName } from '../../core/safeFileName';
import { conversationToMarkdown, type ExportableConversation } from '../../shared/conversationMarkdown';

const MAX_NAME_CHARS = 60;

/** A file name from a conversation title (core/safeFileName.ts), not hidden: the title's leading dots go. */
export function exportFileName(title: string): string {
  return `${safeFileName(title.replace(/\s+/g, ' ').trim().replace(/^\.+/, '').slice(0, MAX_NAME_CHARS), 'conversation')}.md`;
}

/** Where the save dialog asks to save (the test passes its own). */
export type PickExportTarget = (defaultUri: vscode.Uri | undefined) => Thenable<vscode.Uri | undefined>;

const saveDialog: PickExportTarget = (defaultUri) =>
  vscode.window.showSaveDialog({
    defaultUri,
    filters: { Markdown: ['md'] },
    title: vscode.l10n.t('Export Conversation to Markdown'),
    saveLabel: vscode.l10n.t('Export'),
  });

/** Asks where to save, writes the file, opens its preview; returns what to tell the user. */
export async function exportConversation(conversation: ExportableConversation, pickTarget: PickExportTarget = saveDialog): Promise<string> {
  // The workspace folder, else the home folder: the dialog always proposes a name.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await pickTarget(vscode.Uri.joinPath(folder, exportFileName(conversation.title)));
  if (!target) return vscode.l10n.t('Export cancelled: nothing was written.');
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(conversationToMarkdown(conversation, new Date())));
  // Rendered, as it reads in the chat; the source opens if the preview is not available.
  await Promise.resolve(vscode.commands.executeCommand('markdown.showPreview', target)).catch(async () => {
    await vscode.window.showTextDocument(target, { preview: false });
  });
  return vscode.l10n.t('Exported to {0}.', vscode.workspace.asRelativePath(target));
}
