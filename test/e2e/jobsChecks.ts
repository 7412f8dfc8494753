// Browser checks of batch jobs: the Jobs view lists jobs from the sandbox with their phase (a Spot job
// held in the queue says so), and Show Job Logs streams a running job's printed lines into a terminal,
// colours rendered and no raw escape codes. The jobs are created over HTTP with the sandbox's token key.
import type { Page } from 'playwright-core';
import type { SandboxBootstrap } from '../sandbox/types';
import type { E2eCheck } from './checks';
import { firstRunWalkthroughSeen, openViewContainer, pickQuickPickRow, runCommand, waitForRow, widenSideBar } from './workbench';

const TRAIN_JOB = 'e2e-train';
const QUEUED_JOB = 'e2e-spot-queued';

async function call(sandbox: SandboxBootstrap, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.computeBaseUrl}${path}`, {
    method,
    headers: { token: sandbox.credentials.tokenMode.token, version: '1.0.0', timestamp: String(Date.now()), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const envelope = (await response.json()) as { code: string; message: string; data: unknown };
  if (envelope.code !== '0000') throw new Error(`${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

async function createJob(sandbox: SandboxBootstrap, name: string, script: string, spot: boolean): Promise<number> {
  const devices = (await call(sandbox, 'GET', '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice')) as {
    results: { gpu_count: number; regions: { inventory: number; region_name: string; mark: { resource: unknown; mark: string } }[] }[];
  };
  const region = devices.results.filter((device) => device.gpu_count === 1).flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  if (!region) throw new Error('the sandbox sells no 1-GPU device');
  const data = (await call(sandbox, 'POST', '/api/task/job/create', {
    task_name: name,
    sub_type: spot ? 'Spot' : null,
    resources: [{ resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark }],
    points: 1,
    job_support: { estimated_exec_sec: spot ? 120 : null, timeout_sec: 600, parallelism: 1, mod_param: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null } },
    services: [{ service_name: 'container-01', service_image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime', resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 }, start_script: { command: ['/bin/sh', '-c'], args: [script] } }],
  })) as { task_id: number };
  return data.task_id;
}

async function terminalText(page: Page): Promise<string> {
  return (await page.locator('.terminal-wrapper.active .xterm-rows, .xterm .xterm-rows').last().innerText({ timeout: 2000 }).catch(() => '')) ?? '';
}

export const jobsViewAndLogTerminal: E2eCheck = {
  title: 'Jobs view lists a running and a queued Spot job; Show Job Logs streams the printed lines into a terminal',
  async run({ page, sandbox, screenshot }) {
    await fetch(`${sandbox.computeBaseUrl}/__sandbox/jobs/spot-queue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 1, ms: 600_000 }) });
    await createJob(sandbox, QUEUED_JOB, 'echo never yet', true);
    const script = 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf "\\033[1;32mepoch %d\\033[0m loss=%s \\033[2m(lr 3e-4)\\033[0m\\n" $i 0.$((100 - i * 7)); sleep 2; done; echo "saved model.pt"';
    await createJob(sandbox, TRAIN_JOB, script, false);
    // The first-run walkthrough opens by itself: wait until it has (if no earlier check saw it), then close it.
    await firstRunWalkthroughSeen(page);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await openViewContainer(page, 'Compute');
    await widenSideBar(page, 520);
    await runCommand(page, 'Compute: Refresh Jobs');
    await waitForRow(page, 'Jobs', QUEUED_JOB, 60_000);
    await waitForRow(page, 'Jobs', /e2e-train/, 60_000);
    await waitForRow(page, 'Jobs', /Queued \(Spot\)/, 60_000);
    await screenshot('jobs-view');
    await runCommand(page, 'Compute: Show Job Logs');
    await pickQuickPickRow(page, TRAIN_JOB);
    const deadline = Date.now() + 120_000;
    let text = '';
    while (Date.now() < deadline && !/epoch 3/.test(text)) {
      await page.waitForTimeout(1000);
      text = await terminalText(page);
    }
    if (!/epoch 3 loss=/.test(text)) throw new Error(`the terminal did not show the job's lines within 120 s:\n${text.slice(-500)}`);
    if (/\[1;32m|\x1b/.test(text)) throw new Error('raw escape codes in the terminal');
    await runCommand(page, 'Compute: Refresh Jobs');
    await page.waitForTimeout(1000);
    await screenshot('jobs-logs');
  },
};
