// The editor's side of the chat domain (src/core/chat): it hands the host-neutral ChatSession what only
// the editor knows — the active profile's model client, the settings, the last model picked (stored state),
// error reporting, and the history folder in the extension's global storage.

import { join } from 'node:path';
import { ChatSession } from '../../core/chat/chatSession';
import { nodeChatFiles } from '../../core/chat/chatFiles';
import { ConversationStore } from '../../core/chat/conversationStore';
import type { ModelRoutes } from '../../core/chat/modelRoutes';
import { NoChatModelError } from '../../core/chat/turnErrors';
import { renderTurnError } from '../errors/renderers';
import type { ExtensionServices } from '../services';
import { newConversationSettings } from './chatSettings';
import type { ModelClientProvider } from './modelClientProvider';

export { ChatSession };
export type { DeltaEvent, ModelListState } from '../../core/chat/chatSession';

export function createChatSession(services: ExtensionServices, clients: ModelClientProvider, routes: ModelRoutes): ChatSession {
  const { context } = services;
  const store = new ConversationStore(nodeChatFiles(join(context.globalStorageUri.fsPath)), services.logger);
  return new ChatSession({
    store,
    routes,
    client: async () => (await clients.clientForActiveProfile()).client,
    newSettings: () => newConversationSettings(services.config.chat),
    lastModel: {
      // The model picked last, offered to new conversations when no default model is configured.
      get: () => services.state.get('chatLastModel'),
      set: (model) => void services.state.update('chatLastModel', model),
    },
    toTurnError: (error) => renderTurnError(error, services.redactor, services.profiles.active?.label),
    noModelError: (reason) => new NoChatModelError(reason),
    logger: services.logger,
    reportError: (error, where) => services.reportError(error, where),
    retention: () => services.config.chat.maxConversations,
  });
}
