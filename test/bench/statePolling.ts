// What watching costs: task-list requests per interval counted at the sandbox, for an account with
// 2 tasks and one with 200 running, watched as 1 and as 2 profiles, plus an account at rest; then the
// same loop with every kind (tasks, batch jobs — also beside 2,000 ended jobs —, NAS volumes): list
// requests per interval per kind.
// Goal: one listing per watched profile per interval (its pages: the list is read to the end, 100
// rows a page), none at rest. Run: npm run compile-tests && node out/test/bench/statePolling.js
// (or `npm run bench -- state`).

import type { Device } from '../../src/core/compute/api';
import { buildJobBody } from '../../src/core/jobs/jobBody';
import { kindRequestsPerInterval, listRequestsPerInterval, sandboxClient } from '../helpers/statePolling';
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
  await runKindsBench();
}

/** Every kind on the one loop: a running job is listed each interval, volumes at rest are not. */
async function runKindsBench(): Promise<void> {
  console.log(`\n  every kind watched (1 profile): list requests per interval`);
  console.log(`  ${'account'.padEnd(42)}${'tasks'.padEnd(8)}${'jobs'.padEnd(8)}${'volumes'.padEnd(9)}goal`);
  const accounts: { name: string; running: number; job: boolean; endedJobs?: number }[] = [
    { name: '2 tasks, 1 job running, volumes at rest', running: 0, job: true },
    { name: '200 tasks running (+2), 1 job running', running: 200, job: true },
    { name: '2 tasks, 1 job running, 2,000 jobs ended', running: 0, job: true, endedJobs: 2000 },
    { name: '2 tasks, jobs ended, volumes at rest', running: 0, job: false },
  ];
  for (const account of accounts) {
    const sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 0 });
    const client = sandboxClient(sandbox);
    let jobId: number | undefined;
    try {
      if (account.running > 0) sandbox.seedTasks({ running: account.running });
      // Ended jobs are not re-read each interval: only the moving jobs' page is (a look adds one page of recent ended).
      if (account.endedJobs) sandbox.seedEndedJobs(account.endedJobs);
      if (account.job) {
        const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
        const region = devices.results.filter((device: Device) => device.gpu_count === 1).flatMap((device: Device) => device.regions).find((candidate) => candidate.inventory > 0);
        if (!region) throw new Error('the sandbox has no free region');
        const resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
        jobId = (await client.call('job.create', buildJobBody({ name: 'bench', resource, image: 'img', command: 'sleep 60', spot: false, timeoutSec: 120, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [] }))).task_id;
      }
      const active = (await client.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused', page: 1, page_size: 1 })).count;
      const counts = await kindRequestsPerInterval(sandbox, 1, INTERVALS);
      const tasks = mean(counts.tasks);
      const jobs = mean(counts.jobs);
      const volumes = mean(counts.volumes);
      const met = tasks === Math.ceil(active / 100) && jobs === (account.job ? 1 : 0) && volumes === 0 ? 'goal met' : 'goal MISSED';
      console.log(`  ${account.name.padEnd(42)}${tasks.toFixed(2).padEnd(8)}${jobs.toFixed(2).padEnd(8)}${volumes.toFixed(2).padEnd(9)}${met}`);
    } finally {
      if (jobId !== undefined) await client.call('job.stop', { task_id: jobId }).catch(() => undefined);
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
