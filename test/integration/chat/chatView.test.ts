// Compute Chat as a side-bar webview view, and Explain / Find Bugs starting a new conversation, inside a
// real extension host against the sandbox. Every wait is for an event, bounded only by mocha's timeout.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatApi, ChatSnapshot } from '../../../src/vscode/chat/index';
import { sandboxUrl } from '../sandboxInfo';
import { extensionApi } from '../extensionApi';
import { nextEvent } from '../events';

const CHAT_MODEL = 'qwen/qwen3-32b';

function waitForSnapshot(chat: ChatApi, predicate: (snapshot: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
  const now = chat.snapshot();
  if (predicate(now)) return Promise.resolve(now);
  return nextEvent(chat.onDidUpdate, predicate);
}

async function selectCode(content: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ content, language: 'python' });
  const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One });
  editor.selection = new vscode.Selection(0, 0, document.lineCount - 1, 0);
}

describe('chat: side-bar view and new conversations for selection actions (sandbox)', () => {
  let chat: ChatApi;

  before(async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('computeToolkit.profile.connectSandbox', sandboxUrl());
    assert.ok(api.services.profiles.active?.modelApiBaseUrl.startsWith(sandboxUrl()), 'the sandbox profile is active');
    chat = api.chat;
  });

  beforeEach(async () => {
    await chat.whenIdle();
    chat.newConversation();
    chat.selectModel(CHAT_MODEL);
  });

  it('resolves the view, which shows the active conversation and follows a switch', async () => {
    const first = await chat.send('Shown in the side bar');
    await chat.openView();
    const opened = chat.snapshot();
    assert.equal(opened.viewReady, true, 'the view completed the ready handshake');
    assert.equal(opened.shown.view, first.id, 'the view was sent the active conversation');

    const second = chat.newConversation();
    assert.notEqual(second.id, first.id);
    const switched = await waitForSnapshot(chat, (snapshot) => snapshot.shown.view === second.id);
    assert.equal(switched.conversation.id, second.id);
    if (switched.webviewReady) assert.equal(switched.shown.panel, second.id, 'an open panel shows the same conversation');
  });

  it('sends Ask about Selection to the visible view', async () => {
    await chat.openView();
    await selectCode('total = sum(range(10))\nprint(total)\n');
    await vscode.commands.executeCommand('computeToolkit.chat.askAboutSelection');
    const snapshot = await waitForSnapshot(chat, (s) => s.attached?.text.includes('total = sum(range(10))') === true);
    assert.equal(snapshot.viewReady, true, 'the view still shows the chat');
  });

  it('Explain Selection starts a new conversation instead of resending the open one', async () => {
    const open = await chat.send('An earlier question that must not be resent');
    assert.equal(open.turns.length, 2);
    await selectCode('def square(x):\n    return x * x\n');
    await vscode.commands.executeCommand('computeToolkit.chat.explainSelection');
    await chat.whenIdle();
    const explained = chat.activeConversation();
    assert.notEqual(explained.id, open.id, 'a new conversation was started');
    assert.equal(explained.turns.length, 2, 'only the explain request and its reply');
    assert.match(explained.turns[0]?.content ?? '', /^Explain what this code does/);
    assert.equal(explained.turns[1]?.status, 'complete', explained.turns[1]?.error?.message);
    await chat.switchTo(open.id);
    assert.equal(chat.activeConversation().turns.length, 2, 'the open conversation is untouched');
  });

  it('continues the open conversation when chat.selectionActionsNewConversation is off', async () => {
    const config = vscode.workspace.getConfiguration('computeToolkit.chat');
    await config.update('selectionActionsNewConversation', false, vscode.ConfigurationTarget.Global);
    try {
      const open = await chat.send('Keep going in this one');
      await selectCode('items = [1, 2, 3]\nprint(items[3])\n');
      await vscode.commands.executeCommand('computeToolkit.chat.findBugsInSelection');
      await chat.whenIdle();
      const continued = chat.activeConversation();
      assert.equal(continued.id, open.id, 'the same conversation');
      assert.equal(continued.turns.length, 4);
      assert.match(continued.turns[2]?.content ?? '', /^Find bugs in this code/);
    } finally {
      await config.update('selectionActionsNewConversation', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
