// Conversations kept across restarts: one JSON file in the extension's global storage (not globalState,
// which VS Code loads eagerly at startup). Writes are debounced and atomic (temp file, then rename); the
// history is capped by count and by size, dropping the oldest conversations first.

import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { MAX_STORED_CONVERSATIONS, MAX_STORED_HISTORY_BYTES } from '../../shared/limits';
import type { ChatTurn, ConversationSettings } from '../../shared/protocol';

export interface StoredConversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  settings: ConversationSettings;
  turns: ChatTurn[];
}

interface HistoryFile {
  version: 1;
  activeId: string | undefined;
  conversations: StoredConversation[];
}

const FILE_NAME = 'chat-history.json';
const SAVE_DELAY_MS = 400;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTurn(value: unknown): value is ChatTurn {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    (value.role === 'user' || value.role === 'assistant') &&
    typeof value.content === 'string' &&
    typeof value.status === 'string' &&
    typeof value.createdAt === 'number'
  );
}

function isSettings(value: unknown): value is ConversationSettings {
  return (
    isRecord(value) &&
    typeof value.model === 'string' &&
    typeof value.systemPrompt === 'string' &&
    typeof value.temperature === 'number' &&
    typeof value.maxTokens === 'number'
  );
}

function isConversation(value: unknown): value is StoredConversation {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.title === 'string' &&
    typeof value.updatedAt === 'number' &&
    isSettings(value.settings) &&
    Array.isArray(value.turns) &&
    value.turns.every(isTurn)
  );
}

/** A reply that was streaming when VS Code closed did not finish: keep its text, marked incomplete. */
function settleInterrupted(conversation: StoredConversation): StoredConversation {
  for (const turn of conversation.turns) if (turn.status === 'streaming') turn.status = 'incomplete';
  return conversation;
}

export class ConversationStore implements vscode.Disposable {
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly storageUri: vscode.Uri,
    private readonly logger: Logger,
  ) {}

  private get fileUri(): vscode.Uri {
    return vscode.Uri.joinPath(this.storageUri, FILE_NAME);
  }

  async load(): Promise<{ activeId: string | undefined; conversations: StoredConversation[] }> {
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(this.fileUri);
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return { activeId: undefined, conversations: [] };
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      this.logger.warn(`Chat history ${this.fileUri.fsPath} is not valid JSON; starting a new history (${String(error)})`);
      return { activeId: undefined, conversations: [] };
    }
    if (!isRecord(parsed) || !Array.isArray(parsed.conversations)) return { activeId: undefined, conversations: [] };
    const conversations = parsed.conversations.filter(isConversation).map(settleInterrupted);
    const dropped = parsed.conversations.length - conversations.length;
    if (dropped > 0) this.logger.warn(`Chat history: ${dropped} unreadable conversation(s) skipped`);
    return { activeId: typeof parsed.activeId === 'string' ? parsed.activeId : undefined, conversations };
  }

  /** Saves soon (coalescing bursts of changes into one write). */
  scheduleSave(snapshot: () => { activeId: string | undefined; conversations: readonly StoredConversation[] }): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.saveNow(snapshot());
    }, SAVE_DELAY_MS);
  }

  /** Writes the history now (chained so two writes never interleave). */
  saveNow(state: { activeId: string | undefined; conversations: readonly StoredConversation[] }): Promise<void> {
    const text = serializeWithinBudget(state);
    this.saving = this.saving.then(async () => {
      try {
        await vscode.workspace.fs.createDirectory(this.storageUri);
        const temp = vscode.Uri.joinPath(this.storageUri, `${FILE_NAME}.tmp`);
        await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
        await vscode.workspace.fs.rename(temp, this.fileUri, { overwrite: true });
      } catch (error) {
        this.logger.error(`Could not save the chat history: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return this.saving;
  }

  /** Flushes a pending save (called on dispose and by tests). */
  flush(snapshot: () => { activeId: string | undefined; conversations: readonly StoredConversation[] }): Promise<void> {
    if (this.saveTimer === undefined) return this.saving;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    return this.saveNow(snapshot());
  }

  dispose(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
  }
}

/** Newest conversations first, at most MAX_STORED_CONVERSATIONS, dropping the oldest until it fits the size budget. */
function serializeWithinBudget(state: { activeId: string | undefined; conversations: readonly StoredConversation[] }): string {
  const byRecency = [...state.conversations]
    .filter((conversation) => conversation.turns.length > 0 || conversation.id === state.activeId)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, MAX_STORED_CONVERSATIONS);
  for (;;) {
    const file: HistoryFile = { version: 1, activeId: state.activeId, conversations: byRecency };
    const text = JSON.stringify(file);
    // UTF-16 length is a cheap upper-bound proxy for most text; the exact byte count decides.
    if (text.length <= MAX_STORED_HISTORY_BYTES / 4 || Buffer.byteLength(text) <= MAX_STORED_HISTORY_BYTES || byRecency.length <= 1) return text;
    byRecency.pop();
  }
}
