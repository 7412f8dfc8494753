// A conversation as the chat keeps it, and the pure rules about it: validating what is read back from
// disk (a damaged file never takes the others with it), settling replies interrupted by a shutdown, and
// the messages a reply is asked with.

import type { ChatMessage } from '../inference/api';
import type { ChatTurn, ConversationSettings } from '../../shared/protocol';

export interface StoredConversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  settings: ConversationSettings;
  turns: ChatTurn[];
}

/** What the conversation list needs without reading the conversation itself. */
export interface ConversationEntry {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  turnCount: number;
  /** Size of the conversation's file in bytes (the disk used). */
  bytes: number;
}

export { NEW_CHAT_TITLE as NEW_TITLE } from '../../shared/webviewStrings';

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

export function isConversation(value: unknown): value is StoredConversation {
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

export function isConversationEntry(value: unknown): value is ConversationEntry {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.title === 'string' &&
    typeof value.createdAt === 'number' &&
    typeof value.updatedAt === 'number' &&
    typeof value.turnCount === 'number' &&
    typeof value.bytes === 'number'
  );
}

/** A reply that was streaming when the editor closed did not finish: keep its text, marked incomplete. */
export function settleInterrupted(conversation: StoredConversation): StoredConversation {
  for (const turn of conversation.turns) if (turn.status === 'streaming') turn.status = 'incomplete';
  if (typeof conversation.createdAt !== 'number') conversation.createdAt = conversation.updatedAt;
  return conversation;
}

export function entryOf(conversation: StoredConversation, bytes: number): ConversationEntry {
  return {
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    turnCount: conversation.turns.length,
    bytes,
  };
}

/** System prompt + every earlier turn that has text (failed attempts without text are left out). */
export function messagesFor(conversation: StoredConversation): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (conversation.settings.systemPrompt.trim()) messages.push({ role: 'system', content: conversation.settings.systemPrompt });
  for (const turn of conversation.turns) if (turn.content) messages.push({ role: turn.role, content: turn.content });
  return messages;
}

/** The text a search looks through: title and every turn, lower-cased, bounded per conversation. */
export function searchTextOf(conversation: StoredConversation, maxChars: number): string {
  let text = conversation.title;
  for (const turn of conversation.turns) {
    if (text.length >= maxChars) break;
    text += `\n${turn.content}`;
  }
  return text.slice(0, maxChars).toLowerCase();
}
