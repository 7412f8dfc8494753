// A failed tool call as text a model can act on: what failed, the likely cause from the signature
// diagnosis, and the next step. Never a secret: the clients already mask what servers echo, and the
// runner masks the configured secrets once more.

import { ComputeApiError } from '../compute/errors';
import { AbortedError, ComputeToolkitError, ConfigError, HttpError, TimeoutError } from '../errors';

/** What to do next, per kind of failure: the part of the message a model acts on. */
const NEXT_STEP: Record<string, string> = {
  config: 'Fix the input or the configuration named above; do not retry unchanged.',
  auth: 'Credentials or signature were refused: do not retry; ask the user to check the profile\'s token, key mode and keys (the compute_explain_failure tool runs the full check).',
  api: 'The platform refused the request: read its message, check the task state or the input, and do not repeat the same call unchanged.',
  http: 'The server answered unexpectedly; retry later or check the base URL.',
  'rate-limit': 'Rate limited after retries: wait before calling again.',
  timeout: 'The platform did not answer in time: retry once; if it persists, tell the user.',
  network: 'The platform could not be reached: check the base URL and the network; retry later.',
  protocol: 'The answer could not be understood; tell the user (it may be the wrong base URL).',
  aborted: 'The call was cancelled; do not retry unless the user asks.',
};

export function errorText(error: unknown): string {
  if (error instanceof AbortedError) return `Cancelled: ${error.message}. ${NEXT_STEP['aborted']}`;
  if (error instanceof ComputeApiError) {
    return [
      `Error: ${error.message}`,
      `Diagnosis (${error.likelyCause.kind}): ${error.likelyCause.detail}`,
      `Next step: ${NEXT_STEP[error.kind] ?? NEXT_STEP['api']}`,
    ].join('\n');
  }
  if (error instanceof ConfigError) {
    return [`Error: ${error.message}`, ...(error.hint ? [`Hint: ${error.hint}`] : []), `Next step: ${NEXT_STEP['config']}`].join('\n');
  }
  if (error instanceof TimeoutError || error instanceof HttpError || error instanceof ComputeToolkitError) {
    return [`Error (${error.kind}): ${error.message}`, `Next step: ${NEXT_STEP[error.kind] ?? NEXT_STEP['protocol']}`].join('\n');
  }
  // Anything outside the hierarchy is a bug here, not the model's fault; say so without internals.
  const message = error instanceof Error ? error.message : String(error);
  return `Error (internal): ${message.slice(0, 300)}\nNext step: tell the user the tool failed unexpectedly; do not retry.`;
}
