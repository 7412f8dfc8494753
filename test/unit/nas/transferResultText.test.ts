// The line a finished transfer ends with (src/vscode/nas/transferResultText.ts): a download says what it
// downloaded, never "sent" (issue 27); counted nouns take their singular for one.
import '../helpers/englishL10n';
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultMessage } from '../../../src/vscode/nas/transferResultText';

describe('a finished upload or download, in its direction', () => {
  it('"Uploaded …" for an upload, "Downloaded …" for a download, one file in the singular', () => {
    assert.match(resultMessage({ sent: 1, skipped: 0, bytes: 2048 }, 'download'), /^Downloaded 1 file \(2\.00 KiB\), 0 skipped\.$/);
    assert.match(resultMessage({ sent: 3, skipped: 2, bytes: 0 }, 'upload'), /^Uploaded 3 files \(0 B\), 2 skipped\.$/);
    assert.doesNotMatch(resultMessage({ sent: 5, skipped: 0, bytes: 10 }, 'download'), /sent/);
  });
});
