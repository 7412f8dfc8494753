// The requests area's interface for the composition root (docs/areas.md): its command list and the
// observer that records what the extension sends by itself.
export { requestCommands as REQUEST_COMMANDS } from './requestCommands';
export { recordActivity } from './historyStore';
