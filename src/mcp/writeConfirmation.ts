// Every write or destructive MCP tool call is confirmed by the user, call by call, before anything is
// sent: the server asks through MCP elicitation with the same text the editor's confirmations show
// (profile, what will be sent, the cost). A client that cannot ask refuses the call and shows what it
// would have sent, unless the user opted out in the server's own configuration
// (COMPUTE_TOOLKIT_WRITES_UNCONFIRMED=1, docs/mcp.md): a model cannot confirm for the user.

import type { ToolConfirmation } from '../core/tools/index';
import { ENV } from './config';

/** The part of the SDK server this needs (so a test can stand in for the client). */
export interface ElicitingServer {
  getClientCapabilities(): { elicitation?: object } | undefined;
  elicitInput(params: { message: string; requestedSchema: { type: 'object'; properties: Record<string, { type: 'boolean'; title: string; description?: string; default?: boolean }>; required?: string[] } }, options?: { signal?: AbortSignal }): Promise<{ action: string; content?: Record<string, unknown> }>;
}

export type WriteDecision = { send: true; note: string } | { send: false; text: string };

const UNCONFIRMED_ENV = ENV.writesUnconfirmed;

function shown(confirmation: ToolConfirmation): string {
  return `${confirmation.title}\n${confirmation.message}`;
}

export async function decideWrite(server: ElicitingServer, confirmation: ToolConfirmation, unconfirmed: boolean, signal?: AbortSignal): Promise<WriteDecision> {
  if (unconfirmed) return { send: true, note: `Sent without a per-call confirmation (${UNCONFIRMED_ENV}=1):\n${shown(confirmation)}` };
  if (!server.getClientCapabilities()?.elicitation) {
    return {
      send: false,
      text: `Nothing was sent: this MCP client cannot ask the user to confirm a change (it does not support elicitation). What would have been sent:\n${shown(confirmation)}\nTo allow changes without a per-call confirmation, the user sets ${UNCONFIRMED_ENV}=1 in this server's configuration.`,
    };
  }
  let answer: { action: string; content?: Record<string, unknown> };
  try {
    answer = await server.elicitInput(
      {
        message: shown(confirmation),
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Send it', description: 'Check to send this change to the platform.', default: false } }, required: ['confirm'] },
      },
      signal ? { signal } : undefined,
    );
  } catch (error) {
    return { send: false, text: `Nothing was sent: the confirmation could not be asked (${error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : 'error'}).\n${shown(confirmation)}` };
  }
  if (answer.action === 'accept' && answer.content?.confirm === true) return { send: true, note: `Confirmed by the user:\n${shown(confirmation)}` };
  return { send: false, text: `Nothing was sent: the user did not confirm.\n${shown(confirmation)}` };
}
