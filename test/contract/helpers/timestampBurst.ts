// A child process for the cross-process timestamp test: reads {baseUrl, credentials, count} as one JSON
// line on stdin (keys never go on the command line), warms up (key parsed, timestamp slot claimed),
// prints "ready", then reads a second line with the shared start moment (the parent sends it once every
// process is ready, so a slow start on a busy machine cannot make the bursts miss each other), waits
// for it, fires `count` signed requests at once through the extension's compute client and prints one
// JSON line: {ok, failed: [codes]}.

import { createInterface } from 'node:readline';
import { createComputeClient } from '../../../src/core/compute/client';
import { ComputeApiError } from '../../../src/core/compute/errors';
import type { ComputeCredentials } from '../../../src/core/compute/api';

interface BurstInput {
  baseUrl: string;
  credentials: ComputeCredentials;
  count: number;
}

const stdinLines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function nextLine(): Promise<string> {
  const line = await stdinLines.next();
  if (line.done) throw new Error('stdin ended early');
  return line.value;
}

async function main(): Promise<void> {
  const input = JSON.parse(await nextLine()) as BurstInput;
  const client = createComputeClient({ baseUrl: input.baseUrl, credentials: async () => input.credentials, maxRetries: 0 });
  const params = { type: 'Deployment', status: 'Running', page: 1, page_size: 1 };
  await client.build('task.list', params); // parse the key and claim the slot before the burst
  process.stdout.write('ready\n');
  const startAt = Number(await nextLine());
  const wait = startAt - Date.now() - 20;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  while (Date.now() < startAt) {
    // spin through the last milliseconds so both processes start in the same one
  }
  const outcomes = await Promise.allSettled(Array.from({ length: input.count }, () => client.call('task.list', params)));
  const failed = outcomes.flatMap((outcome) =>
    outcome.status === 'fulfilled' ? [] : [outcome.reason instanceof ComputeApiError ? outcome.reason.code : String(outcome.reason)],
  );
  process.stdout.write(`${JSON.stringify({ ok: outcomes.length - failed.length, failed })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
