// The chat's state and behaviour, independent of any panel: conversations (persisted), per-conversation
// settings, the model list, and streaming replies (one per conversation at a time) with Stop, Regenerate,
// Edit-and-resend and Clear. Panels and the in-host tests observe it through events.

import { StateKeys } from '../commandIds';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { AbortedError, isAbort } from '../../core/errors';
import type { ChatMessage, ModelClient } from '../../core/inference/api';
import { sumUsage, titleFrom } from '../../shared/conversationMarkdown';
import type { ChatTurn, ConversationSettings, ConversationSummary, ConversationView, SettingsPatch } from '../../shared/protocol';
import type { ExtensionServices } from '../services';
import { newConversationSettings } from './chatSettings';
import type { ConversationStore, StoredConversation } from './conversationStore';
import type { ModelClientProvider } from './modelClientProvider';
import { NoChatModelError, toTurnError } from './turnErrors';

/** Streamed text is forwarded at most this often (the webview renders once per frame anyway). */
const DELTA_FLUSH_MS = 16;
const NEW_TITLE = 'New chat';
/** The model picked last, offered to new conversations when no default model is configured. */
const LAST_MODEL_KEY = StateKeys.chatLastModel;

export interface DeltaEvent {
  conversationId: string;
  turnId: string;
  content: string;
  reasoning: string;
}

export interface ModelListState {
  models: string[];
  loading: boolean;
  error: string | undefined;
}

interface ReplyRun {
  turn: ChatTurn;
  controller: AbortController;
  stopRequested: boolean;
  pendingContent: string;
  pendingReasoning: string;
  flushTimer: ReturnType<typeof setTimeout> | undefined;
  done: Promise<void>;
}

export class ChatSession implements vscode.Disposable {
  private readonly conversations = new Map<string, StoredConversation>();
  private activeId = '';
  private readonly drafts = new Map<string, string>();
  private readonly runs = new Map<string, ReplyRun>();
  private modelList: ModelListState = { models: [], loading: false, error: undefined };
  /** The listing in flight, if any; aborted when the profile changes. */
  private modelsRequest: { promise: Promise<string[]>; controller: AbortController } | undefined;
  /** Bumped on every profile change: a listing started before it must not write its answer. */
  private modelsGeneration = 0;
  private readonly stateEmitter = new vscode.EventEmitter<void>();
  private readonly deltaEmitter = new vscode.EventEmitter<DeltaEvent>();
  private readonly composerEmitter = new vscode.EventEmitter<{ text: string; focus: boolean }>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDelta = this.deltaEmitter.event;
  /** The host wants the composer to show this text (selection-to-prompt). */
  readonly onDidSetComposer = this.composerEmitter.event;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly store: ConversationStore,
    private readonly clients: ModelClientProvider,
  ) {}

  /** The history is read on first use, not at activation. */
  get loaded(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<void> {
    try {
      const history = await this.store.load();
      for (const conversation of history.conversations) this.conversations.set(conversation.id, conversation);
      if (history.activeId && this.conversations.has(history.activeId)) this.activeId = history.activeId;
    } catch (error) {
      this.services.reportError(error, 'Load the chat history');
    }
    if (!this.conversations.has(this.activeId)) this.activeId = this.newestId() ?? this.create().id;
    this.stateEmitter.fire();
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  get active(): StoredConversation {
    const conversation = this.conversations.get(this.activeId);
    if (conversation) return conversation;
    // Only reachable before load() finished; a fresh conversation keeps callers simple.
    const created = this.create();
    this.activeId = created.id;
    return created;
  }

  view(conversation: StoredConversation = this.active): ConversationView {
    return {
      id: conversation.id,
      title: conversation.title,
      settings: { ...conversation.settings },
      turns: conversation.turns.map((turn) => ({ ...turn })),
      usage: sumUsage(conversation.turns),
      busy: this.runs.has(conversation.id),
    };
  }

  summaries(): ConversationSummary[] {
    return [...this.conversations.values()]
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map((conversation) => ({ id: conversation.id, title: conversation.title, updatedAt: conversation.updatedAt, turnCount: conversation.turns.length }));
  }

  get models(): ModelListState {
    return { ...this.modelList, models: [...this.modelList.models] };
  }

  draft(conversationId: string = this.activeId): string {
    return this.drafts.get(conversationId) ?? '';
  }

  /** Resolves when no reply is streaming in any conversation. */
  async whenIdle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs.values()].map((run) => run.done));
  }

  // ---------------------------------------------------------------------------------------------
  // Conversations

  newConversation(): StoredConversation {
    const conversation = this.create();
    this.activeId = conversation.id;
    this.changed(conversation);
    void this.ensureModels();
    return conversation;
  }

  switchTo(conversationId: string): void {
    if (!this.conversations.has(conversationId)) throw new Error('That conversation no longer exists.');
    this.activeId = conversationId;
    this.changed(undefined);
  }

  delete(conversationId: string): void {
    this.stop(conversationId);
    this.conversations.delete(conversationId);
    this.drafts.delete(conversationId);
    if (this.activeId === conversationId) this.activeId = this.newestId() ?? this.create().id;
    this.changed(undefined);
  }

  clear(): void {
    const conversation = this.active;
    this.stop(conversation.id);
    conversation.turns = [];
    conversation.title = NEW_TITLE;
    this.changed(conversation);
  }

  updateSettings(patch: SettingsPatch): void {
    const conversation = this.active;
    const settings: ConversationSettings = { ...conversation.settings };
    if (patch.model !== undefined) settings.model = patch.model;
    if (patch.systemPrompt !== undefined) settings.systemPrompt = patch.systemPrompt;
    if (patch.temperature !== undefined) settings.temperature = patch.temperature;
    if (patch.maxTokens !== undefined) settings.maxTokens = patch.maxTokens;
    conversation.settings = settings;
    if (patch.model) void this.services.context.globalState.update(LAST_MODEL_KEY, patch.model);
    this.changed(conversation);
  }

  setDraft(text: string, options: { focus: boolean; fromWebview: boolean }): void {
    this.drafts.set(this.activeId, text);
    if (!options.fromWebview) this.composerEmitter.fire({ text, focus: options.focus });
    this.stateEmitter.fire();
  }

  // ---------------------------------------------------------------------------------------------
  // Replies

  /** Adds a user message and streams the reply; resolves when the reply has ended (any way). */
  async send(text: string, notice?: string): Promise<void> {
    await this.loaded;
    const conversation = this.active;
    this.assertIdle(conversation);
    if (conversation.title === NEW_TITLE) conversation.title = titleFrom(text);
    conversation.turns.push(this.userTurn(text, notice));
    this.drafts.delete(conversation.id);
    await this.reply(conversation);
  }

  /** Replaces the last user message (and what followed it) and asks again. */
  async editLast(text: string): Promise<void> {
    await this.loaded;
    const conversation = this.active;
    this.assertIdle(conversation);
    const lastUser = conversation.turns.map((turn) => turn.role).lastIndexOf('user');
    if (lastUser < 0) throw new Error('There is no message to edit.');
    conversation.turns.splice(lastUser);
    conversation.turns.push(this.userTurn(text, undefined));
    if (lastUser === 0) conversation.title = titleFrom(text);
    await this.reply(conversation);
  }

  /** Drops the last reply (or failed attempt) and asks again. Also the inline "Retry". */
  async regenerate(): Promise<void> {
    await this.loaded;
    const conversation = this.active;
    this.assertIdle(conversation);
    while (conversation.turns.at(-1)?.role === 'assistant') conversation.turns.pop();
    if (conversation.turns.length === 0) throw new Error('There is nothing to answer yet.');
    await this.reply(conversation);
  }

  /** Stops the streaming reply of a conversation (the active one by default); its partial text is kept. */
  stop(conversationId: string = this.activeId): void {
    const run = this.runs.get(conversationId);
    if (!run) return;
    run.stopRequested = true;
    run.controller.abort(new AbortedError('Stopped by the user'));
  }

  /** Stops every streaming reply (the panel was closed); partial texts are kept. */
  stopAll(): void {
    for (const conversationId of [...this.runs.keys()]) this.stop(conversationId);
  }

  /** The chat models of the active profile (listed once, again on refresh or profile switch). */
  ensureModels(force = false): Promise<string[]> {
    if (!force && (this.modelList.models.length > 0 || this.modelList.error)) return Promise.resolve(this.modelList.models);
    if (this.modelsRequest) return this.modelsRequest.promise;
    const controller = new AbortController();
    const request = {
      controller,
      promise: this.listModels(this.modelsGeneration, controller.signal).finally(() => {
        if (this.modelsRequest === request) this.modelsRequest = undefined;
      }),
    };
    this.modelsRequest = request;
    return request.promise;
  }

  /**
   * The active profile changed: new client, new model list; replies already streaming finish on the old
   * one. A listing of the old profile still in flight is aborted and its answer dropped, so it can neither
   * stand in for the new profile's list nor overwrite it.
   */
  profileChanged(): void {
    this.clients.reset();
    this.modelsGeneration++;
    this.modelsRequest?.controller.abort(new AbortedError('The active profile changed'));
    this.modelsRequest = undefined;
    this.modelList = { models: [], loading: false, error: undefined };
    this.stateEmitter.fire();
    void this.ensureModels(true);
  }

  dispose(): void {
    this.stopAll();
    this.modelsRequest?.controller.abort(new AbortedError('The chat is shutting down'));
    void this.store.flush(() => this.persistable());
    this.stateEmitter.dispose();
    this.deltaEmitter.dispose();
    this.composerEmitter.dispose();
  }

  /** Writes the history now (tests and shutdown). */
  flush(): Promise<void> {
    return this.store.saveNow(this.persistable());
  }

  // ---------------------------------------------------------------------------------------------
  // Internals

  private create(): StoredConversation {
    const settings = newConversationSettings(this.services.config.chat);
    if (!settings.model) settings.model = this.services.context.globalState.get<string>(LAST_MODEL_KEY, '');
    const now = Date.now();
    const conversation: StoredConversation = { id: randomUUID(), title: NEW_TITLE, createdAt: now, updatedAt: now, settings, turns: [] };
    this.conversations.set(conversation.id, conversation);
    return conversation;
  }

  private newestId(): string | undefined {
    return this.summaries()[0]?.id;
  }

  private userTurn(text: string, notice: string | undefined): ChatTurn {
    const turn: ChatTurn = { id: randomUUID(), role: 'user', content: text, status: 'complete', createdAt: Date.now() };
    if (notice) turn.notice = notice;
    return turn;
  }

  private assertIdle(conversation: StoredConversation): void {
    if (this.runs.has(conversation.id)) throw new Error('A reply is still streaming: stop it first.');
  }

  private changed(conversation: StoredConversation | undefined): void {
    if (conversation) conversation.updatedAt = Date.now();
    this.store.scheduleSave(() => this.persistable());
    this.stateEmitter.fire();
  }

  private persistable(): { activeId: string | undefined; conversations: StoredConversation[] } {
    return { activeId: this.activeId, conversations: [...this.conversations.values()] };
  }

  private reply(conversation: StoredConversation): Promise<void> {
    const turn: ChatTurn = { id: randomUUID(), role: 'assistant', content: '', status: 'streaming', createdAt: Date.now() };
    if (conversation.settings.model) turn.model = conversation.settings.model;
    const history = this.messagesFor(conversation);
    conversation.turns.push(turn);
    const run: ReplyRun = {
      turn,
      controller: new AbortController(),
      stopRequested: false,
      pendingContent: '',
      pendingReasoning: '',
      flushTimer: undefined,
      done: Promise.resolve(),
    };
    this.runs.set(conversation.id, run);
    this.changed(conversation);
    run.done = this.stream(conversation, run, history).finally(() => {
      this.flushDelta(conversation.id, run);
      this.runs.delete(conversation.id);
      this.changed(conversation);
    });
    return run.done;
  }

  /** System prompt + every earlier turn that has text (failed attempts without text are left out). */
  private messagesFor(conversation: StoredConversation): ChatMessage[] {
    const messages: ChatMessage[] = [];
    if (conversation.settings.systemPrompt.trim()) messages.push({ role: 'system', content: conversation.settings.systemPrompt });
    for (const turn of conversation.turns) if (turn.content) messages.push({ role: turn.role, content: turn.content });
    return messages;
  }

  private async stream(conversation: StoredConversation, run: ReplyRun, messages: ChatMessage[]): Promise<void> {
    const { turn, controller } = run;
    try {
      const { client } = await this.clients.clientForActiveProfile();
      const model = await this.modelFor(conversation, client, controller.signal);
      turn.model = model;
      if (controller.signal.aborted) throw new AbortedError('Stopped by the user');
      const { settings } = conversation;
      const stream = client.stream({ model, messages, max_tokens: settings.maxTokens, temperature: settings.temperature }, controller.signal);
      for await (const event of stream) {
        if (event.type === 'content') this.queueDelta(conversation.id, run, event.text, '');
        else if (event.type === 'reasoning') this.queueDelta(conversation.id, run, '', event.text);
        else if (event.type === 'usage') turn.usage = { prompt: event.usage.prompt_tokens, completion: event.usage.completion_tokens, total: event.usage.total_tokens };
      }
      const outcome = await stream.outcome;
      turn.status = outcome.complete ? 'complete' : 'incomplete';
      if (!outcome.complete) turn.notice = 'The stream ended before the server said it was done; the reply may be incomplete.';
      else if (outcome.finishReason === 'length') turn.notice = `The reply reached max_tokens (${settings.maxTokens}) and was cut off.`;
      if (outcome.malformedEvents > 0) this.services.logger.warn(`Chat: ${outcome.malformedEvents} malformed stream event(s) skipped`);
    } catch (error) {
      this.flushDelta(conversation.id, run);
      if (run.stopRequested && isAbort(error)) {
        turn.status = 'stopped';
        return;
      }
      turn.status = turn.content ? 'incomplete' : 'error';
      turn.error = toTurnError(error, this.services.redactor);
      this.services.logger.warn(this.services.redactor.redact(`Chat reply failed (${turn.error.kind}): ${turn.error.message}`));
    }
  }

  private async modelFor(conversation: StoredConversation, client: ModelClient, signal: AbortSignal): Promise<string> {
    if (conversation.settings.model) return conversation.settings.model;
    const listed = await client.listModels(signal);
    const first = listed.find((model) => model.chat)?.id;
    if (!first) throw new NoChatModelError('the model API lists no chat models for this profile.');
    conversation.settings = { ...conversation.settings, model: first };
    return first;
  }

  private async listModels(generation: number, signal: AbortSignal): Promise<string[]> {
    this.modelList = { ...this.modelList, loading: true, error: undefined };
    this.stateEmitter.fire();
    // After a profile switch the caller gets the new profile's list (or the listing now running for it).
    const superseded = (): Promise<string[]> => this.modelsRequest?.promise ?? Promise.resolve(this.models.models);
    try {
      const { client } = await this.clients.clientForActiveProfile();
      if (generation !== this.modelsGeneration) return superseded();
      const models = (await client.listModels(signal)).filter((model) => model.chat).map((model) => model.id);
      if (generation !== this.modelsGeneration) return superseded();
      this.modelList = { models, loading: false, error: models.length === 0 ? 'No chat models are listed for this profile.' : undefined };
      const conversation = this.active;
      if (!conversation.settings.model && models[0]) {
        conversation.settings = { ...conversation.settings, model: models[0] };
        this.store.scheduleSave(() => this.persistable());
      }
    } catch (error) {
      if (generation !== this.modelsGeneration) {
        this.services.logger.debug(`Chat: dropped the model list of the previous profile (${isAbort(error) ? 'aborted' : 'failed'})`);
        return superseded();
      }
      const described = toTurnError(error, this.services.redactor);
      this.modelList = { models: [], loading: false, error: `Models unavailable: ${described.message.split('\n')[0] ?? ''}` };
      this.services.logger.warn(`Chat: listing models failed: ${described.message}`);
    }
    this.stateEmitter.fire();
    return this.modelList.models;
  }

  private queueDelta(conversationId: string, run: ReplyRun, content: string, reasoning: string): void {
    run.turn.content += content;
    if (reasoning) run.turn.reasoning = (run.turn.reasoning ?? '') + reasoning;
    run.pendingContent += content;
    run.pendingReasoning += reasoning;
    run.flushTimer ??= setTimeout(() => this.flushDelta(conversationId, run), DELTA_FLUSH_MS);
  }

  private flushDelta(conversationId: string, run: ReplyRun): void {
    if (run.flushTimer !== undefined) clearTimeout(run.flushTimer);
    run.flushTimer = undefined;
    if (!run.pendingContent && !run.pendingReasoning) return;
    const event: DeltaEvent = { conversationId, turnId: run.turn.id, content: run.pendingContent, reasoning: run.pendingReasoning };
    run.pendingContent = '';
    run.pendingReasoning = '';
    this.deltaEmitter.fire(event);
  }

  /** Sends coalesced text now, so a state snapshot taken next never runs ahead of the deltas already sent. */
  flushAllDeltas(): void {
    for (const [conversationId, run] of this.runs) this.flushDelta(conversationId, run);
  }
}
