// The chat settings as a new conversation starts with them. Config (../config.ts) reads and clamps them.

import type { ChatSettings } from '../config';
import type { ConversationSettings } from '../../shared/protocol';

export type { ChatSettings } from '../config';

/** Settings of a new conversation: the user's defaults (the model is filled in once models are listed). */
export function newConversationSettings(settings: ChatSettings): ConversationSettings {
  return {
    model: settings.defaultModel,
    systemPrompt: settings.systemPrompt,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
  };
}
