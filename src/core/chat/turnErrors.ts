// How a failed reply is shown inline in the conversation: what happened, why, and the actions that fix
// it. The message goes through the Redactor: a server may echo the key it was given.

import { ComputeToolkitError, isComputeToolkitError, type ErrorKind } from '../errors';
import type { Redactor } from '../log';
import type { ChatAction, TurnError } from '../../shared/protocol';
import { errorMessage } from '../../shared/errorMessage';

/** No model API key is stored for the active profile (checked before any request is made). */
export class MissingModelKeyError extends ComputeToolkitError {
  readonly kind = 'config' as const;
  constructor(profileLabel: string) {
    super(`Profile "${profileLabel}" has no model API key. Set one to chat with the hosted models.`);
  }
}

export class NoChatProfileError extends ComputeToolkitError {
  readonly kind = 'config' as const;
  constructor() {
    super('No compute profile is active. Create one, or connect to the local sandbox to try the chat.');
  }
}

export class NoChatModelError extends ComputeToolkitError {
  readonly kind = 'config' as const;
  constructor(reason: string) {
    super(`No chat model is selected: ${reason}`);
  }
}

const HINTS: Partial<Record<ErrorKind, string>> = {
  auth: 'The model API key was rejected: check it is the MaaS key of this profile (an Open API token does not work).',
  'rate-limit': 'The server is rate limiting requests; wait a moment and retry.',
  timeout: 'The server did not answer in time (see computeToolkit.chat.requestTimeoutSeconds).',
  network: 'The model API could not be reached: check the profile\'s model API URL and your connection.',
  protocol: 'The server sent a reply the chat could not understand.',
};

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

export function toTurnError(error: unknown, redactor: Redactor): TurnError {
  if (error instanceof MissingModelKeyError) {
    return { kind: 'config', message: error.message, actions: ['setModelApiKey', 'retry'] };
  }
  if (error instanceof NoChatProfileError) {
    return { kind: 'config', message: error.message, actions: ['connectProfile', 'retry'] };
  }
  if (error instanceof NoChatModelError) {
    return { kind: 'config', message: error.message, actions: ['retry'] };
  }
  if (isComputeToolkitError(error)) {
    const status = statusOf(error);
    const unauthorized = error.kind === 'auth' || status === 401 || status === 403;
    const kind: ErrorKind = unauthorized ? 'auth' : error.kind;
    const hint = HINTS[kind];
    const actions: ChatAction[] = unauthorized ? ['setModelApiKey', 'retry', 'showLogs'] : ['retry', 'showLogs'];
    return { kind, message: redactor.redact(hint ? `${error.message}\n${hint}` : error.message), actions };
  }
  const text = errorMessage(error);
  return { kind: 'unknown', message: redactor.redact(text), actions: ['retry', 'showLogs'] };
}
