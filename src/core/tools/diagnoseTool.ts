// "Explain a signed-request failure": the Sign Request diagnosis as text. Builds and signs a cheap
// read, checks it locally (version, timestamp, signature self-verification), measures the clock
// against the server, sends it, and names the likely cause of a refusal. Changes nothing.

import { ComputeApiError } from '../compute/errors';
import { TASK_FILTER_STATUSES, TASK_LIST_TYPE } from '../tasks/listing';
import { ConfigError } from '../errors';
import type { z } from 'zod';
import type { ToolDefinition } from './api';
import type * as readInputs from './inputs/readInputs';
import { strongestEffect } from './effects';
import { errorText } from './errors';
import { signingOf, tasksOf } from './services';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export const explainFailure: ToolDefinition<z.output<typeof readInputs.explainFailure>> = {
  name: 'compute_explain_failure',
  toolReferenceName: 'computeExplainFailure',
  displayName: 'Explain Signed-Request Failure',
  userDescription: 'Check the profile\'s signing and credentials and explain a refusal.',
  modelDescription:
    'Diagnose why signed requests to the GPU platform fail (codes like C001–C007, "signature", "token", "timestamp" errors): ' +
    'checks the key mode, version header, 13-digit timestamp, the local signature self-verification, the clock skew against ' +
    'the server (5-minute window), then sends one harmless read and explains the refusal if there is one. Use it after any ' +
    'auth or signature error from another compute tool. Never shows secrets.',
  input: (inputs) => inputs.read.explainFailure,

  operations: ['task.list'],
  effect: strongestEffect(['task.list']),
  idempotent: true,
  invocationMessage: () => 'Checking signing and credentials…',
  async run(input, context) {
    const signal = context.signal;
    const lines: string[] = [];
    if (input.code) lines.push(`Reported code: ${input.code.slice(0, 16)}`);
    try {
      const prepared = await signingOf(context).prepare('task.list', { type: TASK_LIST_TYPE, status: TASK_FILTER_STATUSES.join(','), page: 1, page_size: 1 }, signal ? { signal } : undefined);
      lines.push(
        `Key mode: ${prepared.mode}`,
        `Version header: "${prepared.version}" ${prepared.version === '1.0.0' ? '✓' : '✗ (must be the string "1.0.0")'}`,
        `Timestamp: ${prepared.timestamp.length} digits ${/^\d{13}$/.test(prepared.timestamp) ? '✓ (Unix ms)' : '✗ (must be 13-digit Unix milliseconds)'}`,
      );
      if (prepared.mode === 'rsa') {
        lines.push(
          prepared.selfVerified
            ? 'Signature: verifies with the public half of the configured private key ✓'
            : 'Signature: does NOT verify with the configured private key ✗ (the key is damaged or not a pair; re-import it)',
        );
      }
    } catch (error) {
      lines.push('Building the signed request failed before anything was sent:', errorText(error));
      return lines.join('\n');
    }
    try {
      const skew = await signingOf(context).measureClockSkew(signal);
      lines.push(
        `Clock: this computer is ${seconds(Math.abs(skew.offsetMs))} ${skew.offsetMs > 0 ? 'behind' : 'ahead of'} the server ` +
          (skew.outsideWindow ? '✗ (outside the 5-minute window: fix the system clock)' : '✓ (inside the 5-minute window)'),
      );
    } catch (error) {
      lines.push(`Clock: could not be measured (${error instanceof Error ? error.message : String(error)})`);
    }
    try {
      await tasksOf(context).page({ statuses: TASK_FILTER_STATUSES }, 1, 1, signal);
      lines.push('Test request (list tasks): accepted ✓ — signing and credentials work now. If a specific call still fails, its own message and input are the cause.');
    } catch (error) {
      if (error instanceof ComputeApiError) {
        lines.push(`Test request (list tasks): refused with ${error.code} ${error.serverMessage}`.trimEnd(), `Likely cause (${error.likelyCause.kind}): ${error.likelyCause.detail}`);
      } else if (error instanceof ConfigError) {
        lines.push('Test request could not be built:', errorText(error));
      } else {
        lines.push('Test request failed before an answer:', errorText(error));
      }
    }
    return lines.join('\n');
  },
};
