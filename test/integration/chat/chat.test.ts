// The chat panel inside a real extension host, against the sandbox's interface B: open the webview,
// stream a reply, Stop mid-stream, selection-to-prompt, an inline error with Retry, export, persistence.
// No timed assertions: every wait is for an event, bounded only by mocha's generous timeout.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportConversation, exportFileName } from '../../../src/vscode/chat/exportConversation';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { ChatApi, ChatSnapshot } from '../../../src/vscode/chat/index';
import type { ChatTurn } from '../../../src/shared/protocol';
import { clearFaults, injectFault, sandboxUrl } from '../sandboxInfo';
import { extensionApi } from '../extensionApi';
import { nextEvent } from '../events';

const CHAT_MODEL = 'qwen/qwen3-32b';

/** Resolves with the first snapshot (current or future) that satisfies `predicate`. */
function waitForSnapshot(chat: ChatApi, predicate: (snapshot: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
  const now = chat.snapshot();
  if (predicate(now)) return Promise.resolve(now);
  return nextEvent(chat.onDidUpdate, predicate);
}

function lastTurn(snapshot: { conversation: { turns: ChatTurn[] } }): ChatTurn | undefined {
  return snapshot.conversation.turns.at(-1);
}

async function editorWith(content: string, language: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ content, language });
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One });
}

describe('chat: panel, streaming and selection-to-prompt (sandbox)', () => {
  let api: ExtensionApi;
  let chat: ChatApi;

  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('computeToolkit.profile.connectSandbox', sandboxUrl());
    const active = api.services.profiles.active;
    assert.ok(active?.modelApiBaseUrl.startsWith(sandboxUrl()), `active profile ${active?.modelApiBaseUrl} is not the sandbox`);
    chat = api.chat;
    await chat.open();
  });

  beforeEach(async () => {
    await chat.whenIdle();
    chat.newConversation();
    chat.selectModel(CHAT_MODEL);
  });

  afterEach(async () => {
    await clearFaults();
  });

  it('opens the Compute Chat webview, which completes the ready handshake', () => {
    const snapshot = chat.snapshot();
    assert.equal(snapshot.panelOpen, true);
    assert.equal(snapshot.webviewReady, true);
  });

  it('lists only the chat models of the sandbox', async () => {
    const models = await chat.refreshModels();
    assert.ok(models.includes(CHAT_MODEL), `models: ${models.join(', ')}`);
    for (const id of models) assert.match(id, /^[^/]+\/[^/]+$/);
    assert.ok(!models.some((id) => /embedding|reranker|flux|asr|mineru/.test(id)), `non-chat model listed: ${models.join(', ')}`);
  });

  it('streams a reply into the conversation and records usage', async () => {
    let sawStreamingText = false;
    const watching = chat.onDidUpdate((snapshot) => {
      const turn = lastTurn(snapshot);
      if (turn?.role === 'assistant' && turn.status === 'streaming' && turn.content.length > 0) sawStreamingText = true;
    });
    chat.updateSettings({ maxTokens: 100_000 }); // the sandbox spends one token per delta
    const view = await chat.send('Show me a training loop /long');
    watching.dispose();

    const [user, reply] = view.turns;
    assert.equal(view.turns.length, 2);
    assert.equal(user?.role, 'user');
    assert.equal(user?.content, 'Show me a training loop /long');
    assert.equal(reply?.role, 'assistant');
    assert.equal(reply?.status, 'complete', reply?.error?.message);
    assert.equal(reply?.model, CHAT_MODEL);
    assert.ok((reply?.content.length ?? 0) > 10_000, `reply of ${reply?.content.length} chars`);
    assert.ok(reply?.content.includes('```'), 'the long reply has fenced code');
    assert.ok(sawStreamingText, 'text arrived while the reply was still streaming');
    assert.ok(reply?.usage && reply.usage.total > 0, 'usage reported');
    assert.deepEqual(view.usage, reply?.usage);
    assert.equal(view.title, 'Show me a training loop /long');
  });

  it('Export to Markdown saves where the user says, replies rendered (no ```markdown wrapper); cancel writes nothing', async () => {
    // Its own reply first: the tests before it may have left the panel on a new conversation.
    const view = await chat.send('Export this please');
    assert.ok(view.turns.some((turn) => turn.role === 'assistant'), 'no reply to export');
    const folder = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'chat-export-')));
    let offered: vscode.Uri | undefined;
    const target = vscode.Uri.joinPath(folder, 'export.md');
    const told = await exportConversation(view, async (defaultUri) => {
      offered = defaultUri;
      return target;
    });
    assert.match(offered?.path ?? '', /\.md$/, 'the dialog offers a Markdown file');
    assert.ok(offered?.path.includes(exportFileName(view.title)), `the dialog offers ${offered?.path}, not a file named after "${view.title}"`);
    assert.match(told, /export\.md/);
    const written = fs.readFileSync(target.fsPath, 'utf8');
    assert.ok(written.length > 0, `nothing was written to ${target.fsPath}`);
    assert.ok(!written.includes('```markdown'), 'the reply is wrapped as source');
    assert.match(written, /^## Assistant/m);
    assert.match(written, /^#### Sandbox reply from/m, 'the reply\'s own heading renders under the turn\'s');
    const cancelled = vscode.Uri.joinPath(folder, 'cancelled.md');
    await exportConversation(view, async () => undefined);
    assert.equal(fs.existsSync(cancelled.fsPath), false);
    assert.deepEqual(fs.readdirSync(folder.fsPath), ['export.md']);
  });

  it('marks a reply cut at max_tokens', async () => {
    chat.updateSettings({ maxTokens: 20 });
    const view = await chat.send('Short please');
    const reply = lastTurn({ conversation: view });
    assert.equal(reply?.status, 'complete');
    assert.ok(reply?.notice?.includes('max_tokens (20)'), reply?.notice);
  });

  it('Stop mid-stream aborts the reply and keeps the partial text', async () => {
    const sending = chat.send('A long and slow answer please /long /slow');
    const partial = await waitForSnapshot(chat, (snapshot) => {
      const turn = lastTurn(snapshot);
      return turn?.role === 'assistant' && turn.status === 'streaming' && turn.content.length > 50;
    });
    assert.equal(partial.conversation.busy, true);
    chat.stop();
    const view = await sending;
    const reply = lastTurn({ conversation: view });
    assert.equal(reply?.status, 'stopped');
    assert.ok((reply?.content.length ?? 0) >= (lastTurn(partial)?.content.length ?? 0), 'the partial text is kept');
    assert.ok((reply?.content.length ?? 0) < 50_000, 'the reply did not run to the end');
    assert.equal(view.busy, false);
    assert.ok(chat.exportMarkdown().includes('stopped by the user'));
  });

  it('Ask about Selection attaches the code as a chip (file, lines) without sending it', async () => {
    const code = 'def add(a, b):\n    return a + b\n\nprint(add(1, 2))\n';
    const editor = await editorWith(code, 'python');
    editor.selection = new vscode.Selection(0, 0, 1, 16);
    const turnsBefore = chat.activeConversation().turns.length;
    await vscode.commands.executeCommand('computeToolkit.chat.askAboutSelection');

    const snapshot = await waitForSnapshot(chat, (s) => s.attached?.text.includes('def add(a, b):') === true);
    const attached = snapshot.attached;
    assert.ok(attached?.text.includes('```python\ndef add(a, b):\n    return a + b\n```'), attached?.text);
    assert.match(attached?.text ?? '', /lines 1–2:/);
    assert.match(attached?.label ?? '', /, lines 1–2$/);
    assert.ok(!snapshot.draft.includes('def add(a, b):'), 'the code is not pasted into the input');
    assert.equal(snapshot.panelOpen, true);
    assert.equal(chat.activeConversation().turns.length, turnsBefore, 'Ask about Selection must not send');
  });

  it('Explain Selection sends at once and announces a truncated file', async () => {
    const config = vscode.workspace.getConfiguration('computeToolkit.chat');
    await config.update('maxSelectionChars', 200, vscode.ConfigurationTarget.Global);
    try {
      const lines = Array.from({ length: 100 }, (_, i) => `value_${i} = ${i} * 2`).join('\n');
      const editor = await editorWith(`${lines}\n`, 'python');
      editor.selection = new vscode.Selection(0, 0, 0, 0); // nothing selected: the whole file is used
      await vscode.commands.executeCommand('computeToolkit.chat.explainSelection');
      await chat.whenIdle();
      const view = chat.activeConversation();
      const user = view.turns.find((turn) => turn.role === 'user');
      assert.ok(user, 'a user turn was sent');
      assert.match(user.content, /^Explain what this code does/);
      assert.ok(user.notice?.includes('whole file'), user.notice);
      assert.ok(user.notice?.includes('truncated'), user.notice);
      assert.ok(user.content.includes(' of 100 in the whole file (truncated)'));
      assert.equal(lastTurn({ conversation: view })?.status, 'complete');
    } finally {
      await config.update('maxSelectionChars', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('shows an HTTP 200 error body inline with a Retry that then succeeds', async () => {
    await injectFault({
      target: 'inference',
      kind: 'error-200',
      pathPrefix: '/v1/chat/completions',
      message: 'The model does not support Chat Completions API',
      code: '400',
    });
    const failed = await chat.send('hello');
    const errorTurn = lastTurn({ conversation: failed });
    assert.equal(errorTurn?.status, 'error');
    assert.ok(errorTurn?.error?.message.includes('does not support Chat Completions'), errorTurn?.error?.message);
    assert.ok(errorTurn?.error?.actions.includes('retry'));
    const active = api.services.profiles.active;
    assert.ok(active, 'the sandbox profile is active');
    const apiKey = await api.services.profiles.getSecret(active.id, 'modelApiKey');
    assert.ok(apiKey, 'the sandbox profile holds a model key (else the leak check below would check nothing)');
    assert.ok(!JSON.stringify(failed).includes(apiKey), 'the model key never reaches the conversation');

    const retried = await chat.regenerate();
    assert.equal(retried.turns.length, 2, 'the failed attempt is replaced');
    assert.equal(lastTurn({ conversation: retried })?.status, 'complete');
  });

  it('drops a model list still loading for the previous profile when the profile switches', async () => {
    const profiles = api.surface.profiles;
    const previous = profiles.active;
    assert.ok(previous, 'the sandbox profile is active');
    // Same addresses, no model key: its own listing fails at once, before any HTTP request.
    const keyless = { ...previous, id: 'chat-switch-no-model-key', label: 'No model key' };
    await profiles.upsert(keyless);
    try {
      // Holds the previous profile's answer until after the switch.
      await injectFault({ target: 'inference', kind: 'latency', pathPrefix: '/v1/models', delayMs: 1500 });
      const oldListing = chat.refreshModels();
      await profiles.setActive(keyless.id);
      const settled = await waitForSnapshot(chat, (snapshot) => snapshot.models.length > 0 || snapshot.modelsError !== undefined);
      assert.deepEqual(settled.models, [], 'no model of the previous profile is offered for the new one');
      assert.match(settled.modelsError ?? '', /no model API key/);
      await oldListing;
      assert.deepEqual(chat.snapshot().models, [], 'the late answer for the previous profile is dropped');
      assert.match(chat.snapshot().modelsError ?? '', /no model API key/);
    } finally {
      await profiles.setActive(previous.id);
      await profiles.remove(keyless.id);
    }
    const relisted = await chat.refreshModels();
    assert.ok(relisted.includes(CHAT_MODEL), `the sandbox profile lists its models again: ${relisted.join(', ')}`);
  });

  it('keeps each conversation in its own file, with the active one in the recent list', async () => {
    const view = await chat.send('Remember this conversation');
    await chat.flush();
    const folder = vscode.Uri.joinPath(api.services.context.globalStorageUri, 'chat');
    const read = async (uri: vscode.Uri): Promise<unknown> => JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    const stored = (await read(vscode.Uri.joinPath(folder, 'conversations', `${view.id}.json`))) as { id: string; turns: ChatTurn[] };
    assert.deepEqual(stored.turns.map((turn) => turn.content), view.turns.map((turn) => turn.content));
    const recent = (await read(vscode.Uri.joinPath(folder, 'recent.json'))) as { activeId: string; entries: { id: string }[] };
    assert.equal(recent.activeId, view.id);
    assert.ok(recent.entries.some((entry) => entry.id === view.id));
    assert.ok(chat.snapshot().conversations.some((summary) => summary.id === view.id && summary.title === 'Remember this conversation'));
    assert.ok(chat.snapshot().conversationCount >= 1);
  });

  it('deletes a conversation with undo: gone from the list at once, back on undo', async () => {
    const view = await chat.send('Delete me, then bring me back');
    await chat.flush();
    const pending = chat.deleteConversation(view.id);
    assert.ok(!chat.snapshot().conversations.some((summary) => summary.id === view.id));
    assert.equal(await pending.undo(), true);
    assert.equal(chat.activeConversation().id, view.id);
    const found = await chat.searchConversations('bring me back');
    assert.deepEqual(found.map((summary) => summary.id), [view.id]);
  });
});
