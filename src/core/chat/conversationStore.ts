// The chat history on disk, built to grow: one file per conversation (only the changed one is written,
// atomically), an index of every conversation kept as a compacted file plus an append-only journal of
// changes, and a small "recent" file with the newest entries so the list opens in constant time however
// many conversations there are. Nothing is dropped silently: a conversation file the index does not know
// is found and listed again; the old single-file history is migrated on first start and kept as a backup.
//
// Two editor instances share the folder. The conversation files are the truth, the index and journal a cache of
// their entries: a full read lists the folder, drops entries without a file and lists files without an
// entry. A deletion leaves a tombstone that no compaction removes, so a editor instance compacting the index
// from what it read before another editor instance deleted cannot bring the conversation back (nor can a stale
// editor instance saving it again). A damaged conversation file is set aside under chat/damaged (never deleted)
// and named as damaged. Every file is read through a size cap.
//
//   chat/recent.json               { version, activeId, total, bytes, entries: newest RECENT_ENTRIES }
//   chat/index.json                { version, entries: every ConversationEntry } (compacted journal)
//   chat/index.log                 one JSON change per line: put entry / delete id
//   chat/conversations/<id>.json   one StoredConversation
//   chat/deleted/<id>              tombstone of a deleted conversation (kept)
//   chat/damaged/<id>.<time>.json  a conversation file that could not be read, set aside

import type { Logger } from '../log';
import { ChatFileTooLargeError, type ChatFiles } from './chatFiles';
import { entryOf, isConversation, isConversationEntry, settleInterrupted, type ConversationEntry, type StoredConversation } from './conversation';
import { errorMessage } from '../../shared/errorMessage';

export const RECENT_ENTRIES = 20;
const VERSION = 2;
const RECENT = 'chat/recent.json';
const INDEX = 'chat/index.json';
const JOURNAL = 'chat/index.log';
const FOLDER = 'chat/conversations';
const TOMBSTONES = 'chat/deleted';
const DAMAGED = 'chat/damaged';
/** Size caps of what is read from the history folder (a larger file is damaged or not ours). */
export const MAX_CONVERSATION_BYTES = 32 * 1024 * 1024;
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const MAX_RECENT_BYTES = 1024 * 1024;
const MAX_LEGACY_BYTES = 256 * 1024 * 1024;
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

/** A conversation file that exists but cannot be read; it has been set aside (renamed, not deleted). */
export class DamagedConversationError extends Error {
  constructor(
    readonly id: string,
    /** Where the file now is, relative to the storage folder. */
    readonly setAsideAs: string | undefined,
  ) {
    super(
      setAsideAs
        ? `That conversation's file is damaged and could not be read; it was set aside as ${setAsideAs} in the extension's storage folder.`
        : "That conversation's file is damaged and could not be read.",
    );
  }
}

type JournalLine = { op: 'put'; entry: ConversationEntry } | { op: 'delete'; id: string };

/** Text of a file through its size cap; a file over the cap reads as damaged (undefined text, `tooLarge`). */
async function readCapped(files: ChatFiles, name: string, maxBytes: number, logger: Logger): Promise<{ text: string | undefined; tooLarge: boolean }> {
  try {
    return { text: await files.read(name, maxBytes), tooLarge: false };
  } catch (error) {
    if (!(error instanceof ChatFileTooLargeError)) throw error;
    logger.warn(`Chat history: ${error.message}; it is not read`);
    return { text: undefined, tooLarge: true };
  }
}

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
    const recent = parseJson((await readCapped(this.files, RECENT, MAX_RECENT_BYTES, this.logger)).text) as
      | Partial<{ version: number; activeId: unknown; total: unknown; bytes: unknown; entries: unknown }>
      | undefined;
    if (recent?.version === VERSION && Array.isArray(recent.entries) && typeof recent.total === 'number' && typeof recent.bytes === 'number') {
      // Another editor instance may have written this file from a list read before a deletion: tombstones win.
      const deleted = await this.tombstones();
      const entries = recent.entries.filter(isConversationEntry);
      this.recent = entries.filter((entry) => !deleted.has(entry.id)).sort(newestFirst);
      this.total = Math.max(0, recent.total - (entries.length - this.recent.length));
      this.bytes = recent.bytes;
      this.activeId = typeof recent.activeId === 'string' && !deleted.has(recent.activeId) ? recent.activeId : undefined;
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

  /**
   * The conversation, or undefined when its file does not exist. A file that exists but cannot be read
   * (not JSON, not a conversation, another id, over the size cap) is set aside and reported:
   * DamagedConversationError.
   */
  async load(id: string): Promise<StoredConversation | undefined> {
    if (!SAFE_ID.test(id)) return undefined;
    const name = `${FOLDER}/${id}.json`;
    const { text, tooLarge } = await readCapped(this.files, name, MAX_CONVERSATION_BYTES, this.logger);
    if (text === undefined && !tooLarge) return undefined;
    const parsed = parseJson(text);
    if (isConversation(parsed) && parsed.id === id) return settleInterrupted(parsed);
    throw new DamagedConversationError(id, await this.setAside(id));
  }

  /** Moves a damaged conversation file out of the history (never deletes it) and drops its entry. */
  private async setAside(id: string): Promise<string | undefined> {
    const asName = `${DAMAGED}/${id}.${Date.now()}.json`;
    let moved = false;
    try {
      moved = await this.files.move(`${FOLDER}/${id}.json`, asName);
    } catch (error) {
      this.logger.error(`Chat history: conversation ${id} is damaged and could not be set aside (${errorMessage(error)})`);
      return undefined;
    }
    if (!moved) return undefined;
    this.logger.warn(`Chat history: conversation ${id} is damaged (not a readable conversation); its file was set aside as ${asName}`);
    await this.enqueue(async () => {
      const previous = this.all?.get(id) ?? this.recent.find((candidate) => candidate.id === id);
      this.all?.delete(id);
      if (previous) {
        this.total = Math.max(0, this.total - 1);
        this.bytes = Math.max(0, this.bytes - previous.bytes);
      }
      this.recent = this.recent.filter((candidate) => candidate.id !== id);
      await this.journal({ op: 'delete', id });
      await this.writeRecent();
    });
    return asName;
  }

  /** Writes one conversation (and its index entry); the other conversations are not touched. */
  save(conversation: StoredConversation): Promise<void> {
    const snapshot = JSON.stringify(conversation);
    const id = conversation.id;
    return this.enqueue(async () => {
      // Deleted (here or in another editor instance): a editor instance that still shows it does not bring it back.
      if ((await this.files.size(`${TOMBSTONES}/${id}`)) !== undefined) return;
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
    if (!SAFE_ID.test(id)) return Promise.resolve();
    return this.enqueue(async () => {
      // The tombstone first: from here on no editor instance lists it again, whatever its index says. Written
      // even when this editor instance's list does not know the conversation (another editor instance created it).
      await this.files.write(`${TOMBSTONES}/${id}`, `${Date.now()}\n`);
      const all = await this.ensureAll();
      const previous = all.get(id);
      all.delete(id);
      if (previous) {
        this.total--;
        this.bytes -= previous.bytes;
      }
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

  /** Ids deleted in any editor instance. */
  private async tombstones(): Promise<Set<string>> {
    return new Set((await this.files.list(TOMBSTONES)).filter((name) => SAFE_ID.test(name)));
  }

  /**
   * load() from inside the write queue (a full read): a damaged file is set aside at once; its entry is
   * not added, so nothing is queued behind the running read.
   */
  private async loadInQueue(id: string): Promise<StoredConversation | undefined> {
    const name = `${FOLDER}/${id}.json`;
    const { text, tooLarge } = await readCapped(this.files, name, MAX_CONVERSATION_BYTES, this.logger);
    if (text === undefined && !tooLarge) return undefined;
    const parsed = parseJson(text);
    if (isConversation(parsed) && parsed.id === id) return settleInterrupted(parsed);
    const asName = `${DAMAGED}/${id}.${Date.now()}.json`;
    const moved = await this.files.move(name, asName);
    if (moved) this.logger.warn(`Chat history: conversation ${id} is damaged (not a readable conversation); its file was set aside as ${asName}`);
    throw new DamagedConversationError(id, moved ? asName : undefined);
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
    const index = parseJson((await readCapped(this.files, INDEX, MAX_INDEX_BYTES, this.logger)).text) as { entries?: unknown } | undefined;
    if (Array.isArray(index?.entries)) for (const entry of index.entries.filter(isConversationEntry)) all.set(entry.id, entry);
    const journal = (await readCapped(this.files, JOURNAL, MAX_INDEX_BYTES, this.logger)).text ?? '';
    let lines = 0;
    for (const text of journal.split('\n')) {
      if (!text) continue;
      lines++;
      const line = parseJson(text) as Partial<JournalLine> | undefined;
      if (line?.op === 'put' && isConversationEntry(line.entry)) all.set(line.entry.id, line.entry);
      else if (line?.op === 'delete' && typeof line.id === 'string') all.delete(line.id);
    }
    // The folder and the tombstones decide: an entry whose file is gone or that was deleted is dropped
    // (the index may come from a editor instance that read it before another editor instance's deletion).
    const deleted = await this.tombstones();
    const present = new Set<string>();
    for (const name of await this.files.list(FOLDER)) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!SAFE_ID.test(id)) continue;
      // A stale editor instance saved a deleted conversation again: the deletion stands.
      if (deleted.has(id)) await this.files.remove(`${FOLDER}/${id}.json`);
      else present.add(id);
    }
    let dropped = 0;
    for (const id of [...all.keys()]) {
      if (present.has(id)) continue;
      all.delete(id);
      dropped++;
    }
    let recovered = await this.recoverUnlisted(all, present);
    recovered += await this.migrateLegacy(all, deleted);
    if (lines > 0 || recovered > 0 || dropped > 0 || !index) {
      await this.files.write(INDEX, JSON.stringify({ version: VERSION, entries: [...all.values()] }));
      await this.files.remove(JOURNAL);
    }
    return all;
  }

  /** A conversation file the index does not list (a crash between two writes) is listed again. */
  private async recoverUnlisted(all: Map<string, ConversationEntry>, present: ReadonlySet<string>): Promise<number> {
    let recovered = 0;
    for (const id of present) {
      if (all.has(id)) continue;
      let conversation: StoredConversation | undefined;
      try {
        conversation = await this.loadInQueue(id);
      } catch (error) {
        if (error instanceof DamagedConversationError) continue; // set aside and logged
        throw error;
      }
      if (!conversation) continue;
      all.set(id, entryOf(conversation, (await this.files.size(`${FOLDER}/${id}.json`)) ?? 0));
      recovered++;
    }
    if (recovered > 0) this.logger.info(`Chat history: ${recovered} conversation(s) missing from the index were listed again`);
    return recovered;
  }

  /** The single-file history of earlier versions becomes one file per conversation; the old file is kept. */
  private async migrateLegacy(all: Map<string, ConversationEntry>, deleted: ReadonlySet<string>): Promise<number> {
    const text = (await readCapped(this.files, LEGACY_HISTORY, MAX_LEGACY_BYTES, this.logger)).text;
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
      if (all.has(conversation.id) || deleted.has(conversation.id)) continue;
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
