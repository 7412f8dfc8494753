// What watching costs: task-list requests per interval counted at the sandbox, for an account with
// 2 tasks and one with 200 running, watched as 1 and as 2 profiles, plus an account at rest.
// Goal: one listing per watched profile per interval (its pages: the list is read to the end, 100
// rows a page), none at rest. Run: npm run compile-tests && node out/test/bench/statePolling.js
// (or `npm run bench -- state`).

import { listRequestsPerInterval, sandboxClient } from '../helpers/statePolling';
import { startSandbox } from '../sandbox/server';

const INTERVALS = 6;

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export async function runStatePollingBench(): Promise<void> {
  console.log(`\nRemote-state polling: task-list requests per interval at the sandbox, over ${INTERVALS} intervals`);
  console.log(`  ${'account'.padEnd(34)}${'1 profile'.padEnd(12)}${'2 profiles'.padEnd(12)}pages of the active list`);
  const accounts: { name: string; seed?: { running: number }; rest?: boolean }[] = [
    { name: '2 tasks (1 running, 1 paused)' },
    { name: '200 tasks running (+2)', seed: { running: 200 } },
    { name: '2 tasks, all paused (at rest)', rest: true },
  ];
  for (const account of accounts) {
    const sandbox = await startSandbox({ pendingMs: 0 });
    try {
      if (account.seed) sandbox.seedTasks(account.seed);
      const client = sandboxClient(sandbox);
      if (account.rest) {
        const moving = await client.call('task.list', { type: 'Deployment', status: 'Pending,Running', page: 1, page_size: 100 });
        for (const task of moving.results) await client.call('task.pause', { task_id: task.task_id });
      }
      const active = (await client.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused', page: 1, page_size: 1 })).count;
      const one = mean(await listRequestsPerInterval(sandbox, 1, INTERVALS));
      const two = mean(await listRequestsPerInterval(sandbox, 2, INTERVALS));
      const pages = account.rest ? 0 : Math.ceil(active / 100);
      const met = one === pages && two === 2 * pages ? 'goal met' : 'goal MISSED';
      console.log(`  ${account.name.padEnd(34)}${one.toFixed(2).padEnd(12)}${two.toFixed(2).padEnd(12)}${pages}  ${met}`);
    } finally {
      await sandbox.close();
    }
  }
}

if (require.main === module) {
  runStatePollingBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
