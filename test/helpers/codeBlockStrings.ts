// The English code-block labels the webview gets from the host's bundle (src/vscode/chat/webviewStrings.ts),
// for tests and benchmarks that render markdown on plain Node.
import type { CodeBlockStrings } from '../../src/webview/chat/markdown';

export const ENGLISH_CODE_BLOCK_STRINGS: CodeBlockStrings = {
  codeCopy: 'Copy',
  codeCopyTitle: 'Copy to clipboard',
  codeInsert: 'Insert',
  codeInsertTitle: 'Insert at the cursor of the last active editor',
  codeOpen: 'Open',
  codeOpenTitle: 'Open in a new editor',
  codePlainText: 'text',
  codeBlock: 'Code ({0})',
  image: 'image',
  imageLink: '[image: {0}]',
};
