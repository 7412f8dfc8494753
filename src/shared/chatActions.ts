// The actions an inline chat error offers (re-exported by protocol.ts); its own file so that the
// message schemas (webviewMessageSchema.ts) read it without importing the protocol that reads them.

/** The actions an inline error offers; the host maps each to a fixed command (never an arbitrary one). */
export type ChatAction = 'retry' | 'setModelApiKey' | 'connectProfile' | 'showLogs';
export const CHAT_ACTIONS: readonly ChatAction[] = ['retry', 'setModelApiKey', 'connectProfile', 'showLogs'];
