// How in-host suites reach the sandbox that the runner started beside VS Code.
// The runner passes its URL in COMPUTE_TOOLKIT_SANDBOX_URL (inherited by the extension host).
import type { TaskSeedCounts, TaskSeedResult } from '../sandbox/compute/bulkTasks';
import type { Fault, RecordedRequest, SandboxBootstrap } from '../sandbox/types';

export interface SandboxInfo {
  url: string;
  bootstrap: SandboxBootstrap;
}

export function sandboxUrl(): string {
  const url = process.env.COMPUTE_TOOLKIT_SANDBOX_URL;
  if (!url) throw new Error('COMPUTE_TOOLKIT_SANDBOX_URL is not set: the in-host suites need the sandbox the runner starts');
  return url.replace(/\/+$/, '');
}

export async function getSandbox(): Promise<SandboxInfo> {
  const url = sandboxUrl();
  const response = await fetch(`${url}/__sandbox/bootstrap`);
  if (!response.ok) throw new Error(`sandbox bootstrap answered HTTP ${response.status}`);
  return { url, bootstrap: (await response.json()) as SandboxBootstrap };
}

export async function injectFault(fault: Fault): Promise<void> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  if (!response.ok) throw new Error(`sandbox fault injection answered HTTP ${response.status}`);
}

export async function clearFaults(): Promise<void> {
  await fetch(`${sandboxUrl()}/__sandbox/faults`, { method: 'DELETE' });
}

/** Adds a heavy account's tasks (POST /__sandbox/tasks/seed); returns the new ids by status. */
export async function seedTasks(counts: TaskSeedCounts): Promise<TaskSeedResult> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/tasks/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(counts),
  });
  if (response.status !== 201) throw new Error(`sandbox task seeding answered HTTP ${response.status}: ${await response.text()}`);
  return (await response.json()) as TaskSeedResult;
}

/** Adds `ended` batch jobs that ended long ago (POST /__sandbox/jobs/seed); returns their ids, oldest first. */
export async function seedEndedJobs(ended: number): Promise<number[]> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/jobs/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ended }),
  });
  if (response.status !== 201) throw new Error(`sandbox job seeding answered HTTP ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { ids: number[] }).ids;
}

/** The sandbox's request log (newest first, at most 200). */
export async function sandboxRequests(): Promise<RecordedRequest[]> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/requests`);
  if (!response.ok) throw new Error(`sandbox request log answered HTTP ${response.status}`);
  return (await response.json()) as RecordedRequest[];
}
