// The chat's state and behaviour, independent of any panel or editor: conversations (persisted one per
// file, listed newest first, searchable), per-conversation settings, the model list, and streaming replies
// (one per conversation at a time) with Stop, Regenerate, Edit-and-resend, and Clear / Delete that can be
// undone. Panels, a language-model provider and the tests observe it through events.

import { randomUUID } from 'node:crypto';
import type { Logger } from '../log';
import type { ModelClient } from '../inference/api';
import { sumUsage, titleFrom } from '../../shared/conversationMarkdown';
import type { ChatTurn, ConversationSettings, DeployedModelOption, ConversationSummary, ConversationView, SettingsPatch, TurnError } from '../../shared/protocol';
import { messagesFor, NEW_TITLE, type ConversationEntry, type StoredConversation } from './conversation';
import { ConversationList } from './conversationList';
import type { ConversationStore } from './conversationStore';
import { Emitter } from './events';
import { ModelList, type ModelListState } from './modelList';
import { ReplyRun, type DeltaEvent } from './replyRunner';
import type { ModelRoutes } from './modelRoutes';

export type { DeltaEvent } from './replyRunner';
export type { ModelListState } from './modelList';

export interface ChatSessionDeps {
  store: ConversationStore;
  /** Models besides the profile's (a user's deployments, docs/deployments.md): listed first, asked through their routes. */
  routes?: ModelRoutes;
  /** The active profile's model client; rejects with an actionable error when there is none. */
  client(): Promise<ModelClient>;
  /** Settings of a new conversation (the user's defaults). */
  newSettings(): ConversationSettings;
  /** The model picked last, offered to new conversations when no default model is configured. */
  lastModel: { get(): string; set(model: string): void };
  toTurnError(error: unknown): TurnError;
  /** Thrown (as a turn error) when no model is selected and none is listed. */
  noModelError(reason: string): Error;
  logger: Logger;
  reportError(error: unknown, context: string): void;
  /** Most conversations kept (0: unlimited); the oldest beyond it are removed after a new one is saved. */
  retention(): number;
  /** How long a deleted or cleared conversation can be brought back (default 10 minutes). */
  undoWindowMs?: number;
  flushMs?: number;
}

const SAVE_DELAY_MS = 400;

export class ChatSession {
  readonly list: ConversationList;
  private readonly runs = new Map<string, ReplyRun>();
  private readonly drafts = new Map<string, string>();
  private readonly modelList: ModelList;
  private readonly saveTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly stateEmitter = new Emitter<void>();
  private readonly deltaEmitter = new Emitter<DeltaEvent>();
  private readonly composerEmitter = new Emitter<{ text: string; focus: boolean }>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDelta = this.deltaEmitter.event;
  /** The host wants the composer to show this text (selection-to-prompt). */
  readonly onDidSetComposer = this.composerEmitter.event;
  private loading: Promise<void> | undefined;
  private disposed = false;
  private readonly routes: ModelRoutes | undefined;
  /** Last change time handed out: strictly increasing, so "newest first" never ties. */
  private lastStamp = 0;

  constructor(private readonly deps: ChatSessionDeps) {
    this.routes = deps.routes;
    this.list = new ConversationList(deps.store, deps.logger, () => this.create(), deps.undoWindowMs, () => this.stateEmitter.fire());
    this.modelList = new ModelList({
      client: () => deps.client(),
      describeError: (error) => deps.toTurnError(error).message.split('\n')[0] ?? '',
      logger: deps.logger,
      changed: () => {
        this.adoptListedModel();
        this.stateEmitter.fire();
      },
    });
  }

  /** The newest conversations and the active one are read on first use, not at activation. */
  get loaded(): Promise<void> {
    this.loading ??= this.list.open().then(
      () => this.stateEmitter.fire(),
      (error: unknown) => this.deps.reportError(error, 'Load the chat history'),
    );
    return this.loading;
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  get active(): StoredConversation {
    return this.list.active;
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

  /** The newest conversations (bounded, the active one always included) for a picker. */
  summaries(): ConversationSummary[] {
    return this.list.summaries();
  }

  /** How many conversations are kept and the disk they use. */
  get counts(): { total: number; bytes: number } {
    return this.list.counts;
  }

  /** Conversations whose title or text contains every word of `query` (newest first). */
  search(query: string, limit?: number): Promise<ConversationEntry[]> {
    return this.list.search(query, limit);
  }

  get models(): ModelListState {
    return this.modelList.current;
  }

  /** Deployed models for the pickers (docs/deployments.md); empty without routes. */
  get deployedModels(): DeployedModelOption[] {
    return this.routes?.options() ?? [];
  }

  /** The routes' list changed (a deployment became ready, was paused): show it. */
  routesChanged(): void {
    if (!this.disposed) this.stateEmitter.fire();
  }

  draft(conversationId: string = this.active.id): string {
    return this.drafts.get(conversationId) ?? '';
  }

  /** Resolves when no reply is streaming in any conversation. */
  async whenIdle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs.values()].map((run) => run.done));
  }

  // ---------------------------------------------------------------------------------------------
  // Conversations

  newConversation(): StoredConversation {
    const conversation = this.list.add(this.create());
    void this.ensureModels();
    this.stateEmitter.fire();
    return conversation;
  }

  async switchTo(conversationId: string): Promise<void> {
    await this.list.switchTo(conversationId);
    this.stateEmitter.fire();
  }

  /** Removes a conversation from the list; `undo()` brings it back until the undo window passes. */
  delete(conversationId: string): { title: string; undo: () => Promise<boolean>; commit: () => void } {
    this.stop(conversationId);
    this.drafts.delete(conversationId);
    this.cancelSave(conversationId);
    const pending = this.list.delete(conversationId);
    this.stateEmitter.fire();
    return {
      title: pending.title,
      undo: async () => {
        const restored = await pending.undo();
        if (!restored) return false;
        // Changes not yet written when it was deleted are written now.
        const conversation = this.list.loaded(conversationId);
        if (conversation) this.scheduleSave(conversation);
        this.stateEmitter.fire();
        return true;
      },
      commit: pending.commit,
    };
  }

  /** Empties the active conversation; `undo()` puts its turns back (before any sent since). */
  clear(): { undo: () => boolean } {
    const conversation = this.active;
    this.stop(conversation.id);
    const { turns, title } = conversation;
    conversation.turns = [];
    conversation.title = NEW_TITLE;
    this.changed(conversation);
    return {
      undo: () => {
        if (this.runs.has(conversation.id) || !this.list.has(conversation.id)) return false;
        conversation.turns = [...turns, ...conversation.turns];
        conversation.title = title;
        this.changed(conversation);
        return true;
      },
    };
  }

  /**
   * A model the user just made answerable (Deploy a Model): new conversations start with it, and the active
   * one takes it when nothing was said in it yet (a conversation under way keeps its model).
   */
  preferModel(modelId: string): void {
    this.deps.lastModel.set(modelId);
    const conversation = this.active;
    if (conversation.turns.length === 0 && !this.runs.has(conversation.id)) this.updateSettings({ model: modelId });
  }

  updateSettings(patch: SettingsPatch): void {
    const conversation = this.active;
    const settings: ConversationSettings = { ...conversation.settings };
    if (patch.model !== undefined) settings.model = patch.model;
    if (patch.systemPrompt !== undefined) settings.systemPrompt = patch.systemPrompt;
    if (patch.temperature !== undefined) settings.temperature = patch.temperature;
    if (patch.maxTokens !== undefined) settings.maxTokens = patch.maxTokens;
    conversation.settings = settings;
    if (patch.model) this.deps.lastModel.set(patch.model);
    this.changed(conversation);
  }

  setDraft(text: string, options: { focus: boolean; fromWebview: boolean }): void {
    this.drafts.set(this.active.id, text);
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
  stop(conversationId: string = this.active.id): void {
    this.runs.get(conversationId)?.stop();
  }

  /** Stops every streaming reply (the panel was closed); partial texts are kept. */
  stopAll(): void {
    for (const run of this.runs.values()) run.stop();
  }

  /** The chat models of the active profile (listed once; `force` lists again, aborting a stuck listing). */
  ensureModels(force = false): Promise<string[]> {
    return force ? this.modelList.refresh() : this.modelList.ensure();
  }

  /** The active profile changed: new model list; replies already streaming finish on the old client. */
  profileChanged(): void {
    void this.modelList.reset();
  }

  /** Sends coalesced text now, so a state snapshot taken next never runs ahead of the deltas already sent. */
  flushAllDeltas(): void {
    for (const run of this.runs.values()) run.flush();
  }

  /** Writes every pending change now (tests and shutdown). */
  async flush(): Promise<void> {
    for (const [id, timer] of this.saveTimers) {
      clearTimeout(timer);
      this.saveTimers.delete(id);
      const conversation = this.list.loaded(id);
      if (conversation && this.list.has(id)) void this.list.save(conversation, this.deps.retention());
    }
    await this.list.flush();
  }

  /** Stops every reply, writes what is pending and lets go of everything (shutdown, tests). */
  async close(): Promise<void> {
    this.stopAll();
    await this.whenIdle();
    this.dispose();
    await this.list.flush();
  }

  dispose(): void {
    if (this.disposed) return;
    this.stopAll();
    this.modelList.dispose();
    void this.flush();
    this.disposed = true;
    this.list.dispose();
    this.stateEmitter.dispose();
    this.deltaEmitter.dispose();
    this.composerEmitter.dispose();
  }

  // ---------------------------------------------------------------------------------------------
  // Internals

  private create(): StoredConversation {
    const settings = this.deps.newSettings();
    if (!settings.model) settings.model = this.deps.lastModel.get();
    const now = Date.now();
    return { id: randomUUID(), title: NEW_TITLE, createdAt: now, updatedAt: now, settings, turns: [] };
  }

  private userTurn(text: string, notice: string | undefined): ChatTurn {
    const turn: ChatTurn = { id: randomUUID(), role: 'user', content: text, status: 'complete', createdAt: Date.now() };
    if (notice) turn.notice = notice;
    return turn;
  }

  private assertIdle(conversation: StoredConversation): void {
    if (this.runs.has(conversation.id)) throw new Error('A reply is still streaming: stop it first.');
  }

  private changed(conversation: StoredConversation): void {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    conversation.updatedAt = this.lastStamp;
    this.list.touched(conversation);
    this.scheduleSave(conversation);
    this.stateEmitter.fire();
  }

  /** Writes only this conversation, soon (bursts of changes become one write). */
  private scheduleSave(conversation: StoredConversation): void {
    if (this.disposed) return;
    this.cancelSave(conversation.id);
    this.saveTimers.set(
      conversation.id,
      setTimeout(() => {
        this.saveTimers.delete(conversation.id);
        if (this.list.has(conversation.id)) void this.list.save(conversation, this.deps.retention());
      }, SAVE_DELAY_MS),
    );
  }

  private cancelSave(conversationId: string): void {
    const timer = this.saveTimers.get(conversationId);
    if (timer !== undefined) clearTimeout(timer);
    this.saveTimers.delete(conversationId);
  }

  private adoptListedModel(): void {
    const first = this.modelList.current.models[0];
    if (!first || !this.list.isOpen) return;
    const conversation = this.active;
    if (conversation.settings.model) return;
    conversation.settings = { ...conversation.settings, model: first };
    this.scheduleSave(conversation);
  }

  private reply(conversation: StoredConversation): Promise<void> {
    const turn: ChatTurn = { id: randomUUID(), role: 'assistant', content: '', status: 'streaming', createdAt: Date.now() };
    if (conversation.settings.model) turn.model = conversation.settings.model;
    const history = messagesFor(conversation);
    conversation.turns.push(turn);
    const run = new ReplyRun(conversation.id, turn, history, { ...conversation.settings }, {
      client: () => this.deps.client(),
      routes: this.routes,
      defaultModel: async (client, signal) => {
        const listed = await client.listModels(signal);
        const first = listed.find((model) => model.chat)?.id;
        if (!first) throw this.deps.noModelError('the model API lists no chat models for this profile.');
        conversation.settings = { ...conversation.settings, model: first };
        return first;
      },
      toTurnError: (error) => this.deps.toTurnError(error),
      logger: this.deps.logger,
      onDelta: (event) => this.deltaEmitter.fire(event),
      // The new turns are shown once the request is on its way (first-token latency), before any delta.
      announce: () => this.changed(conversation),
      ...(this.deps.flushMs === undefined ? {} : { flushMs: this.deps.flushMs }),
    });
    this.runs.set(conversation.id, run);
    return run.done.then(() => {
      this.runs.delete(conversation.id);
      this.changed(conversation);
    });
  }
}
