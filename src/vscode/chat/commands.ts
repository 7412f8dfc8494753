// The chat area's command-table entries: open the panel, start a conversation, and the three
// selection-to-prompt commands.
import type { SelectionIntent } from '../../shared/selectionPrompt';
import { Commands, type CommandId } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import type { ChatPanel } from './chatPanel';
import type { ChatSession } from './chatSession';
import { quoteSelection } from './selection';

export interface ChatContext {
  services: ExtensionServices;
  session: ChatSession;
  panel: ChatPanel;
}

function selectionEntry(id: CommandId, intent: SelectionIntent, doing: string): CommandEntry<ChatContext> {
  return { id, doing, create: ({ services, session, panel }) => () => quoteSelection(intent, session, panel, services.config.chat.maxSelectionChars) };
}

export const CHAT_COMMANDS: readonly CommandEntry<ChatContext>[] = [
  { id: Commands.chatOpen, doing: 'Open the chat', create: ({ panel }) => () => panel.open(false) },
  {
    id: Commands.chatNew,
    doing: 'Start a new conversation',
    create: ({ session, panel }) => async () => {
      await session.loaded;
      session.newConversation();
      panel.open(false);
    },
  },
  selectionEntry(Commands.chatAskAboutSelection, 'ask', 'Ask about the selection'),
  selectionEntry(Commands.chatExplainSelection, 'explain', 'Explain the selection'),
  selectionEntry(Commands.chatFindBugsInSelection, 'findBugs', 'Find bugs in the selection'),
];
