// The chat history on disk, built to grow: one file per conversation (only the changed one is written,
// atomically), an index of every conversation kept as a compacted file plus an append-only journal of
// changes, and a small "recent" file with the newest entries so the list opens in constant time however
// many conversations there are. Nothing is dropped silently: a conversation file the index does not know
// is found and listed again; the old single-file history is migrated on first start and kept as a backup.
//
//   chat/recent.json               { version, activeId, total, bytes, entries: newest RECENT_ENTRIES }
//   chat/index.json                { version, entries: every ConversationEntry } (compacted journal)
//   chat/index.log                 one JSON change per line: put entry / delete id
//   chat/conversations/<id>.json   one StoredConversation

import type { Logger } from '../log';
import type { ChatFiles } from './chatFiles';
import { entryOf, isConversation, isConversationEntry, settleInterrupted, type ConversationEntry, type StoredConversation } from './conversation';
import { errorMessage } from '../../shared/errorMessage';

export const RECENT_ENTRIES = 20;
const VERSION = 2;
const RECENT = 'chat/recent.json';
const INDEX = 'chat/index.json';
const JOURNAL = 'chat/index.log';
const FOLDER = 'chat/conversations';
/** The history of versions before 2: every conversation in one file. */
export const LEGACY_HISTORY = 'chat-history.json';
const LEGACY_BACKUP = 'chat-history.migrated.json';
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export interface OpenedHistory {
  activeId: string | undefined;
  /** Newest first; at most RECENT_ENTRIES until the full index is loaded. */
  recent: ConversationEntry[];
  total: number;
  /** Bytes on disk of all conversations. */
  bytes: number;
}

type JournalLine = { op: 'put'; entry: ConversationEntry } | { op: 'delete'; id: string };

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function newestFirst(a: ConversationEntry, b: ConversationEntry): number {
  return b.updatedAt - a.updatedAt;
}

export class ConversationStore {
  /** Every entry, once the full index has been read (undefined before). */
  private all: Map<string, ConversationEntry> | undefined;
  private fullLoad: Promise<Map<string, ConversationEntry>> | undefined;
  private recent: ConversationEntry[] = [];
  private total = 0;
  private bytes = 0;
  private activeId: string | undefined;
  /** Writes run one after another (a later state never lands before an earlier one). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly files: ChatFiles,
    private readonly logger: Logger,
  ) {}

  /** The newest conversations and the counts; constant time when the recent file is intact. */
  async open(): Promise<OpenedHistory> {
    const recent = parseJson(await this.files.read(RECENT)) as Partial<{ version: number; activeId: unknown; total: unknown; bytes: unknown; entries: unknown }> | undefined;
    if (recent?.version === VERSION && Array.isArray(recent.entries) && typeof recent.total === 'number' && typeof recent.bytes === 'number') {
      this.recent = recent.entries.filter(isConversationEntry).sort(newestFirst);
      this.total = recent.total;
      this.bytes = recent.bytes;
      this.activeId = typeof recent.activeId === 'string' ? recent.activeId : undefined;
    } else {
      // First start, an older version or a damaged recent file: read everything once and rewrite it.
      await this.loadAll();
      await this.enqueue(() => this.writeRecent());
    }
    return this.opened();
  }

  private opened(): OpenedHistory {
    return { activeId: this.activeId, recent: [...this.recent], total: this.total, bytes: this.bytes };
  }

  /** Every entry, newest first (reads the index and journal once). */
  async entries(): Promise<ConversationEntry[]> {
    return [...(await this.loadAll()).values()].sort(newestFirst);
  }

  get counts(): { total: number; bytes: number } {
    return { total: this.total, bytes: this.bytes };
  }

  /** Every entry (reads the index, the journal and the folder once; in line with the writes). */
  loadAll(): Promise<Map<string, ConversationEntry>> {
    this.fullLoad ??= new Promise((resolve, reject) => {
      this.queue = this.queue.then(() => this.ensureAll().then(resolve, reject));
    });
    return this.fullLoad;
  }

  /** Only from inside the write queue. */
  private async ensureAll(): Promise<Map<string, ConversationEntry>> {
    if (this.all) return this.all;
    const all = await this.readAll();
    this.all = all;
    this.recount();
    return all;
  }

  async load(id: string): Promise<StoredConversation | undefined> {
    if (!SAFE_ID.test(id)) return undefined;
    const parsed = parseJson(await this.files.read(`${FOLDER}/${id}.json`));
    if (!isConversation(parsed) || parsed.id !== id) {
      if (parsed !== undefined) this.logger.warn(`Chat history: conversation ${id} is unreadable and was skipped`);
      return undefined;
    }
    return settleInterrupted(parsed);
  }

  /** Writes one conversation (and its index entry); the other conversations are not touched. */
  save(conversation: StoredConversation): Promise<void> {
    const snapshot = JSON.stringify(conversation);
    const id = conversation.id;
    return this.enqueue(async () => {
      const bytes = await this.files.write(`${FOLDER}/${id}.json`, snapshot);
      const entry = entryOf(JSON.parse(snapshot) as StoredConversation, bytes);
      // An older conversation than the recent ones: whether it is new is only known from the full index.
      const known = this.recent.find((candidate) => candidate.id === id);
      const all = this.all ?? (known ? undefined : await this.ensureAll());
      const previous = all?.get(id) ?? known;
      if (previous) this.bytes += bytes - previous.bytes;
      else {
        this.total++;
        this.bytes += bytes;
      }
      all?.set(id, entry);
      this.recent = [entry, ...this.recent.filter((candidate) => candidate.id !== id)].sort(newestFirst).slice(0, RECENT_ENTRIES);
      await this.journal({ op: 'put', entry });
      await this.writeRecent();
    });
  }

  /** Removes a conversation for good (the caller has given the user a way back before this). */
  remove(id: string): Promise<void> {
    return this.enqueue(async () => {
      const all = await this.ensureAll();
      const previous = all.get(id);
      if (!previous) return;
      all.delete(id);
      this.total--;
      this.bytes -= previous.bytes;
      await this.journal({ op: 'delete', id });
      await this.files.remove(`${FOLDER}/${id}.json`);
      this.recent = this.recent.filter((candidate) => candidate.id !== id);
      if (this.recent.length < RECENT_ENTRIES) this.recent = [...all.values()].sort(newestFirst).slice(0, RECENT_ENTRIES);
      await this.writeRecent();
    });
  }

  setActive(id: string | undefined): Promise<void> {
    if (this.activeId === id) return this.queue.then(() => undefined);
    this.activeId = id;
    return this.enqueue(() => this.writeRecent());
  }

  /** Resolves when every write asked for so far is on disk. */
  async flush(): Promise<void> {
    await this.queue;
  }

  private enqueue(write: () => Promise<void>): Promise<void> {
    const next = this.queue.then(write).catch((error: unknown) => {
      this.logger.error(`Could not save the chat history: ${errorMessage(error)}`);
    });
    this.queue = next;
    return next;
  }

  private async journal(line: JournalLine): Promise<void> {
    await this.files.append(JOURNAL, `${JSON.stringify(line)}\n`);
  }

  private async writeRecent(): Promise<void> {
    await this.files.write(RECENT, JSON.stringify({ version: VERSION, activeId: this.activeId, total: this.total, bytes: this.bytes, entries: this.recent }));
  }

  private recount(): void {
    const all = this.all;
    if (!all) return;
    this.total = all.size;
    this.bytes = 0;
    for (const entry of all.values()) this.bytes += entry.bytes;
    this.recent = [...all.values()].sort(newestFirst).slice(0, RECENT_ENTRIES);
  }

  /** Index + journal, plus any conversation file they do not list; compacts the journal into the index. */
  private async readAll(): Promise<Map<string, ConversationEntry>> {
    const all = new Map<string, ConversationEntry>();
    const index = parseJson(await this.files.read(INDEX)) as { entries?: unknown } | undefined;
    if (Array.isArray(index?.entries)) for (const entry of index.entries.filter(isConversationEntry)) all.set(entry.id, entry);
    const journal = (await this.files.read(JOURNAL)) ?? '';
    let lines = 0;
    for (const text of journal.split('\n')) {
      if (!text) continue;
      lines++;
      const line = parseJson(text) as Partial<JournalLine> | undefined;
      if (line?.op === 'put' && isConversationEntry(line.entry)) all.set(line.entry.id, line.entry);
      else if (line?.op === 'delete' && typeof line.id === 'string') all.delete(line.id);
    }
    let recovered = await this.recoverUnlisted(all);
    recovered += await this.migrateLegacy(all);
    if (lines > 0 || recovered > 0 || !index) {
      await this.files.write(INDEX, JSON.stringify({ version: VERSION, entries: [...all.values()] }));
      await this.files.remove(JOURNAL);
    }
    return all;
  }

  /** A conversation file the index does not list (a crash between two writes) is listed again. */
  private async recoverUnlisted(all: Map<string, ConversationEntry>): Promise<number> {
    let recovered = 0;
    for (const name of await this.files.list(FOLDER)) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!SAFE_ID.test(id) || all.has(id)) continue;
      const conversation = await this.load(id);
      if (!conversation) continue;
      all.set(id, entryOf(conversation, (await this.files.size(`${FOLDER}/${id}.json`)) ?? 0));
      recovered++;
    }
    if (recovered > 0) this.logger.info(`Chat history: ${recovered} conversation(s) missing from the index were listed again`);
    return recovered;
  }

  /** The single-file history of earlier versions becomes one file per conversation; the old file is kept. */
  private async migrateLegacy(all: Map<string, ConversationEntry>): Promise<number> {
    const text = await this.files.read(LEGACY_HISTORY);
    if (text === undefined) return 0;
    const parsed = parseJson(text) as { activeId?: unknown; conversations?: unknown } | undefined;
    if (!parsed || !Array.isArray(parsed.conversations)) {
      this.logger.warn(`Chat history: ${LEGACY_HISTORY} is not readable; it is left in place untouched`);
      return 0;
    }
    let migrated = 0;
    for (const value of parsed.conversations) {
      if (!isConversation(value)) continue;
      const conversation = settleInterrupted(value);
      if (!SAFE_ID.test(conversation.id)) conversation.id = `migrated-${migrated}-${conversation.createdAt}`;
      if (all.has(conversation.id)) continue;
      const bytes = await this.files.write(`${FOLDER}/${conversation.id}.json`, JSON.stringify(conversation));
      all.set(conversation.id, entryOf(conversation, bytes));
      migrated++;
    }
    const skipped = parsed.conversations.length - migrated;
    if (typeof parsed.activeId === 'string' && all.has(parsed.activeId)) this.activeId = parsed.activeId;
    // Written only after every conversation is in its own file: a crash before this migrates again.
    await this.files.write(LEGACY_BACKUP, text);
    await this.files.remove(LEGACY_HISTORY);
    this.logger.info(`Chat history: migrated ${migrated} conversation(s) to one file each${skipped > 0 ? ` (${skipped} unreadable or already present, kept in ${LEGACY_BACKUP})` : ''}`);
    return migrated;
  }
}
