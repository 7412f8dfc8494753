// The conversation picker's search entry counts saved conversations only, with the right wording for
// none, one and many (issue 18: "Search all 1 conversations…" right after the only one was deleted,
// counting the empty new chat).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WEBVIEW_STRING_KEYS, type WebviewStrings } from '../../../src/shared/webviewStrings';
import { searchConversationsLabel } from '../../../src/webview/chat/strings';

const STRINGS = Object.fromEntries(WEBVIEW_STRING_KEYS.map((key) => [key, key])) as unknown as WebviewStrings;
const ENGLISH: WebviewStrings = {
  ...STRINGS,
  searchAllConversations: 'Search all {0} conversations…',
  searchOneConversation: 'Search 1 conversation…',
  searchConversations: 'Search conversations…',
};

describe('conversation picker search label', () => {
  it('none, one, many', () => {
    assert.equal(searchConversationsLabel(ENGLISH, 0), 'Search conversations…');
    assert.equal(searchConversationsLabel(ENGLISH, 1), 'Search 1 conversation…');
    assert.equal(searchConversationsLabel(ENGLISH, 2), 'Search all 2 conversations…');
    assert.equal(searchConversationsLabel(ENGLISH, 1234), `Search all ${(1234).toLocaleString()} conversations…`);
  });
});
