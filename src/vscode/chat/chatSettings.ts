// The computeToolkit.chat.* settings, read fresh each time (they can change while VS Code runs),
// clamped to the limits both sides of the webview boundary share.

import * as vscode from 'vscode';
import {
  MAX_SELECTION_CHARS_CAP,
  MAX_SYSTEM_PROMPT_CHARS,
  MAX_TOKENS_MAX,
  MAX_TOKENS_MIN,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from '../../shared/limits';
import type { ConversationSettings } from '../../shared/protocol';

export interface ChatSettings {
  defaultModel: string;
  systemPrompt: string;
  temperature: number;
  maxTokens: number;
  maxSelectionChars: number;
  firstTokenTimeoutMs: number;
  idleTimeoutMs: number;
  /** Most conversations kept; 0 keeps every one. */
  maxConversations: number;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function finite(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function readChatSettings(): ChatSettings {
  const config = vscode.workspace.getConfiguration('computeToolkit.chat');
  return {
    defaultModel: config.get<string>('defaultModel', '').trim(),
    systemPrompt: config.get<string>('systemPrompt', '').slice(0, MAX_SYSTEM_PROMPT_CHARS),
    temperature: clamp(finite(config.get('temperature'), 0.7), TEMPERATURE_MIN, TEMPERATURE_MAX),
    maxTokens: Math.round(clamp(finite(config.get('maxTokens'), 2048), MAX_TOKENS_MIN, MAX_TOKENS_MAX)),
    maxSelectionChars: Math.round(clamp(finite(config.get('maxSelectionChars'), 20_000), 100, MAX_SELECTION_CHARS_CAP)),
    firstTokenTimeoutMs: clamp(finite(config.get('requestTimeoutSeconds'), 60), 1, 3600) * 1000,
    idleTimeoutMs: clamp(finite(config.get('idleTimeoutSeconds'), 60), 1, 3600) * 1000,
    maxConversations: Math.round(clamp(finite(config.get('maxConversations'), 0), 0, 1_000_000)),
  };
}

/** Settings of a new conversation: the user's defaults (the model is filled in once models are listed). */
export function newConversationSettings(settings: ChatSettings = readChatSettings()): ConversationSettings {
  return {
    model: settings.defaultModel,
    systemPrompt: settings.systemPrompt,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
  };
}
