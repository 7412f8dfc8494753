// A child process for the cross-process timestamp test: reads {baseUrl, credentials, startAt, count}
// as JSON on stdin (keys never go on the command line), warms up (key parsed, timestamp slot
// claimed), waits for the shared start moment, fires `count` signed requests at once through the
// extension's compute client and prints one JSON line: {ok, failed: [codes]}.

import { createComputeClient } from '../../../src/core/compute/client';
import { ComputeApiError } from '../../../src/core/compute/errors';
import type { ComputeCredentials } from '../../../src/core/compute/api';

interface BurstInput {
  baseUrl: string;
  credentials: ComputeCredentials;
  startAt: number;
  count: number;
}

async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text;
}

async function main(): Promise<void> {
  const input = JSON.parse(await readStdin()) as BurstInput;
  const client = createComputeClient({ baseUrl: input.baseUrl, credentials: async () => input.credentials, maxRetries: 0 });
  const params = { type: 'Deployment', status: 'Running', page: 1, page_size: 1 };
  await client.build('task.list', params); // parse the key and claim the slot before the burst
  const wait = input.startAt - Date.now() - 20;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  while (Date.now() < input.startAt) {
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
