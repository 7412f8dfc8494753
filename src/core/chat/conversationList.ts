// The conversations the chat knows: the list entries (the newest read at open, all of them on demand),
// the conversations read so far, which one is active, deletions that can still be undone, retention, and
// a search through titles and text that reads each conversation once and then answers from memory.

import type { Logger } from '../log';
import type { ConversationSummary } from '../../shared/protocol';
import { entryOf, searchTextOf, type ConversationEntry, type StoredConversation } from './conversation';
import { DamagedConversationError, type ConversationStore } from './conversationStore';
import { errorMessage } from '../../shared/errorMessage';

/** Most conversations a picker is sent (the newest; search reaches the rest). */
export const SUMMARY_LIMIT = 100;
/** Text of a conversation a search looks through (its beginning: the title and the first turns). */
const SEARCH_CHARS = 8_000;
const SEARCH_READ_BATCH = 32;
const DEFAULT_UNDO_WINDOW_MS = 10 * 60_000;

export interface PendingDeletion {
  title: string;
  /** Puts the conversation back; false when the undo window has passed. */
  undo(): Promise<boolean>;
  /** Deletes it for good now (the user dismissed the undo offer). */
  commit(): void;
}

export class ConversationList {
  private readonly entries = new Map<string, ConversationEntry>();
  private readonly conversations = new Map<string, StoredConversation>();
  private readonly searchTexts = new Map<string, string>();
  private readonly pendingDeletions = new Map<string, { timer: ReturnType<typeof setTimeout>; done: Promise<void> | undefined }>();
  private sorted: ConversationEntry[] | undefined;
  private activeId = '';
  private opened = false;
  private readonly saving = new Set<Promise<void>>();
  private total = 0;
  private bytes = 0;

  constructor(
    private readonly store: ConversationStore,
    private readonly logger: Logger,
    private readonly create: () => StoredConversation,
    private readonly undoWindowMs = DEFAULT_UNDO_WINDOW_MS,
    /** The list changed on its own (the full index arrived after the newest entries). */
    private readonly listChanged: () => void = () => undefined,
  ) {}

  get isOpen(): boolean {
    return this.opened;
  }

  /** Reads the newest entries and the active conversation; the full index follows in the background. */
  async open(): Promise<void> {
    const history = await this.store.open();
    for (const entry of history.recent) this.entries.set(entry.id, entry);
    this.total = history.total;
    this.bytes = history.bytes;
    this.sorted = undefined;
    const candidates = [history.activeId, ...history.recent.map((entry) => entry.id)].filter((id): id is string => id !== undefined);
    for (const id of candidates) {
      const conversation = await this.readOrForget(id);
      if (conversation) {
        this.activeId = id;
        break;
      }
    }
    this.opened = true;
    if (!this.activeId) this.add(this.create());
    void this.store.loadAll().then(
      (all) => {
        let added = 0;
        for (const [id, entry] of all) {
          if (this.entries.has(id) || this.pendingDeletions.has(id)) continue;
          this.entries.set(id, entry);
          added++;
        }
        this.sorted = undefined;
        this.syncCounts();
        if (added > 0) this.listChanged();
      },
      (error: unknown) => this.logger.warn(`Chat history: the full list could not be read (${errorMessage(error)})`),
    );
  }

  get active(): StoredConversation {
    const conversation = this.conversations.get(this.activeId);
    if (conversation) return conversation;
    // Only reachable before open() finished; a fresh conversation keeps callers simple.
    return this.add(this.create());
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  loaded(id: string): StoredConversation | undefined {
    return this.conversations.get(id);
  }

  /** A new conversation, made active (written once it has something in it). */
  add(conversation: StoredConversation): StoredConversation {
    this.conversations.set(conversation.id, conversation);
    this.activeId = conversation.id;
    this.touched(conversation);
    void this.store.setActive(conversation.id);
    return conversation;
  }

  /** Throws DamagedConversationError for a file that exists but cannot be read (set aside by the store). */
  async switchTo(id: string): Promise<void> {
    let conversation: StoredConversation | undefined;
    try {
      conversation = this.entries.has(id) ? await this.read(id) : undefined;
    } catch (error) {
      if (error instanceof DamagedConversationError) this.forget(id);
      throw error;
    }
    if (!conversation) {
      this.forget(id);
      throw new Error('That conversation no longer exists.');
    }
    this.activeId = id;
    void this.store.setActive(id);
  }

  /** Its list entry follows the conversation (title, time, turns) without reading anything. */
  touched(conversation: StoredConversation): void {
    const previous = this.entries.get(conversation.id);
    this.entries.set(conversation.id, entryOf(conversation, previous?.bytes ?? 0));
    this.searchTexts.delete(conversation.id);
    this.sorted = undefined;
  }

  save(conversation: StoredConversation, retention: number): Promise<void> {
    if (!this.entries.has(conversation.id)) return Promise.resolve();
    // Tracked until the retention it may trigger is done too, so flush() covers both.
    const saving = (async () => {
      await this.store.save(conversation);
      this.syncCounts();
      if (retention > 0 && this.store.counts.total > retention) await this.applyRetention(retention);
    })();
    this.saving.add(saving);
    const settled = (): void => void this.saving.delete(saving);
    saving.then(settled, settled);
    return saving;
  }

  /** Hidden from the list at once; the file stays until the undo window passes or commit() is called. */
  delete(id: string): PendingDeletion {
    const entry = this.entries.get(id);
    const conversation = this.conversations.get(id);
    this.entries.delete(id);
    this.sorted = undefined;
    if (this.activeId === id) {
      const next = [...this.conversations.values()].filter((candidate) => this.entries.has(candidate.id)).sort((a, b) => b.updatedAt - a.updatedAt)[0];
      if (next) this.activeId = next.id;
      else this.add(this.create());
      void this.store.setActive(this.activeId);
    }
    const commit = (): void => {
      const pending = this.pendingDeletions.get(id);
      if (!pending || pending.done) return;
      clearTimeout(pending.timer);
      this.conversations.delete(id);
      this.searchTexts.delete(id);
      pending.done = this.store.remove(id).then(() => {
        this.pendingDeletions.delete(id);
        this.syncCounts();
      });
    };
    this.pendingDeletions.set(id, { timer: setTimeout(commit, this.undoWindowMs), done: undefined });
    return {
      title: entry?.title ?? conversation?.title ?? '',
      commit,
      undo: async () => {
        const pending = this.pendingDeletions.get(id);
        if (!pending || pending.done || !entry) return false;
        clearTimeout(pending.timer);
        this.pendingDeletions.delete(id);
        this.entries.set(id, entry);
        this.sorted = undefined;
        await this.switchTo(id);
        return true;
      },
    };
  }

  get counts(): { total: number; bytes: number } {
    return { total: this.total, bytes: this.bytes };
  }

  /** The newest SUMMARY_LIMIT conversations, the active one always among them. */
  summaries(): ConversationSummary[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => b.updatedAt - a.updatedAt);
    const shown = this.sorted.slice(0, SUMMARY_LIMIT);
    const active = this.entries.get(this.activeId);
    if (active && !shown.includes(active)) shown.push(active);
    return shown.map((entry) => ({ id: entry.id, title: entry.title, updatedAt: entry.updatedAt, turnCount: entry.turnCount }));
  }

  /** Conversations whose title or text contains every word of the query, newest first. */
  async search(query: string, limit = 200): Promise<ConversationEntry[]> {
    await this.store.loadAll();
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const all = [...this.entries.values()].sort((a, b) => b.updatedAt - a.updatedAt);
    if (words.length === 0) return all.slice(0, limit);
    const missing = all.filter((entry) => !this.searchTexts.has(entry.id));
    for (let i = 0; i < missing.length; i += SEARCH_READ_BATCH) {
      await Promise.all(
        missing.slice(i, i + SEARCH_READ_BATCH).map(async (entry) => {
          const conversation = this.conversations.get(entry.id) ?? (await this.loadOrUndefined(entry.id));
          this.searchTexts.set(entry.id, conversation ? searchTextOf(conversation, SEARCH_CHARS) : entry.title.toLowerCase());
        }),
      );
    }
    const matches: ConversationEntry[] = [];
    for (const entry of all) {
      const text = this.searchTexts.get(entry.id) ?? '';
      if (words.every((word) => text.includes(word))) matches.push(entry);
      if (matches.length >= limit) break;
    }
    return matches;
  }

  async flush(): Promise<void> {
    while (this.saving.size > 0) await Promise.allSettled([...this.saving]);
    await this.store.flush();
  }

  dispose(): void {
    // Deletions not undone by now stand; their files are removed (or found again at the next start).
    for (const [id, pending] of this.pendingDeletions) {
      clearTimeout(pending.timer);
      if (!pending.done) void this.store.remove(id);
    }
  }

  /** A damaged file (set aside and logged by the store) reads as no conversation, and leaves the list. */
  private async loadOrUndefined(id: string): Promise<StoredConversation | undefined> {
    try {
      return await this.store.load(id);
    } catch (error) {
      if (!(error instanceof DamagedConversationError)) throw error;
      this.forget(id);
      return undefined;
    }
  }

  private async readOrForget(id: string): Promise<StoredConversation | undefined> {
    try {
      return await this.read(id);
    } catch (error) {
      if (!(error instanceof DamagedConversationError)) throw error;
      this.forget(id);
      return undefined;
    }
  }

  /** The entry leaves the list (its file is gone or was set aside). */
  private forget(id: string): void {
    if (this.entries.delete(id)) this.sorted = undefined;
    this.conversations.delete(id);
    this.searchTexts.delete(id);
    this.syncCounts();
  }

  private async read(id: string): Promise<StoredConversation | undefined> {
    const known = this.conversations.get(id);
    if (known) return known;
    const conversation = await this.store.load(id);
    if (conversation) this.conversations.set(id, conversation);
    return conversation;
  }

  private syncCounts(): void {
    const counts = this.store.counts;
    this.total = counts.total;
    this.bytes = counts.bytes;
  }

  /** Removes the oldest conversations beyond the user's retention setting (never the active one). */
  private async applyRetention(retention: number): Promise<void> {
    const all = await this.store.entries();
    const excess = all.filter((entry) => entry.id !== this.activeId).slice(Math.max(0, retention - 1));
    for (const entry of excess) {
      this.entries.delete(entry.id);
      this.conversations.delete(entry.id);
      this.searchTexts.delete(entry.id);
      await this.store.remove(entry.id);
    }
    this.sorted = undefined;
    this.syncCounts();
    if (excess.length > 0) this.logger.info(`Chat history: removed ${excess.length} oldest conversation(s) beyond the retention setting (${retention})`);
  }
}
