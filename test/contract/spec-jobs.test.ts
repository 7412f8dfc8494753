// Job spec files against the strict sandbox: the NAS check reads the account's volumes (Active, in
// the region), a plan's body is what `job.create` accepts (the same call as Create Job…), a job saved
// as a spec plans the same job again, and the agent tools plan and apply a job file (a file that
// already names a job is refused: jobs cannot be updated).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { listVolumes } from '../../src/core/nas/volumes';
import { confinedSpecFiles } from '../../src/core/specs/fileAccess';
import { specFromJob } from '../../src/core/specs/fromLive';
import { applyJobPlan, checkSpec, nasVolumesOf, planJobSpec, type SpecContext } from '../../src/core/specs/runner';
import type { JobSpec } from '../../src/core/specs/types';
import { findTool, type ToolContext } from '../../src/core/tools/index';
import { confirmTool, runTool } from '../../src/core/tools/run';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { specServicesOver } from '../../src/core/specs/specServices';
import { VolumeService } from '../../src/core/nas/volumeService';

describe('job spec files against the strict sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let context: SpecContext;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    context = { services: specServicesOver(() => client), resolveSecret: async (ref) => ('secret' in ref && ref.secret === 'train-HF_TOKEN' ? 'hf_contracttoken123' : undefined), nasVolumes: nasVolumesOf(new VolumeService(() => client)) };
  });
  after(() => sandbox.close());

  /** A 1-GPU offer in stock in the region named `regionName` (the seeded NAS volume's region). */
  async function specIn(regionName: string | undefined, volumeId: number): Promise<JobSpec> {
    const devices = (await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' })).results;
    const found = devices
      .filter((device) => device.gpu_count === 1)
      .flatMap((device) => device.regions.filter((region) => region.inventory > 0 && (regionName === undefined || region.region_name === regionName)).map((region) => ({ device, region })))[0];
    assert.ok(found, `the sandbox has a 1-GPU offer in stock${regionName ? ` in ${regionName}` : ''}`);
    return {
      kind: 'job',
      name: 'spec-train',
      resource: { gpu: found.device.gpu_name, gpuCount: 1, region: found.region.region, device: found.device.device_name },
      completions: 2,
      parallelism: 2,
      timeoutSeconds: 600,
      retry: { backoffLimit: 1, restartPolicy: 'Never' },
      services: [{ name: 'main', image: 'pytorch/pytorch:2.4', command: ['/bin/sh', '-c'], args: ['echo hi'], env: { MODE: 'fast', HF_TOKEN: { secret: 'train-HF_TOKEN' } }, nas: [{ volumeId, targetDir: '/mnt/nas' }] }],
    };
  }

  it('NAS check: the seeded volume passes in its region and fails elsewhere or when unknown; the plan creates the job as written', async () => {
    const volume = (await listVolumes(client)).find((candidate) => candidate.status === 'Active');
    assert.ok(volume, 'the sandbox seeds an Active volume');
    const spec = await specIn(volume.region.name, volume.storage_id);
    const nasFindings = async (candidate: JobSpec) => (await checkSpec(candidate, context)).filter((check) => check.path.includes('nas'));
    assert.deepEqual(await nasFindings(spec), []);
    const elsewhere = (await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' })).results
      .flatMap((device) => device.regions.map((region) => ({ device, region })))
      .find(({ device, region }) => device.gpu_count === 1 && region.region_name !== volume.region.name && region.inventory > 0);
    assert.ok(elsewhere);
    const far = await nasFindings({ ...spec, resource: { gpu: elsewhere.device.gpu_name, gpuCount: 1, region: elsewhere.region.region, device: elsewhere.device.device_name } });
    assert.equal(far.length, 1);
    assert.match(far[0]!.message, /a volume mounts only in its own region/);
    const unknown = await nasFindings({ ...spec, services: [{ ...spec.services[0]!, nas: [{ volumeId: 987654, targetDir: '/mnt/nas' }] }] });
    assert.match(unknown[0]?.message ?? '', /NAS volume 987654 does not exist/);

    const plan = await planJobSpec(spec, context);
    assert.equal(plan.action, 'create');
    const { taskId } = await applyJobPlan(plan, context);
    const detail = await client.call('job.detail', { task_id: taskId });
    assert.equal(detail.points, 2);
    assert.equal(detail.job_support.parallelism, 2);
    assert.equal(detail.job_support.timeout_sec, 600);
    assert.equal(detail.services[0]!.service_image, 'pytorch/pytorch:2.4');
    assert.deepEqual(detail.services[0]!.start_script, { command: ['/bin/sh', '-c'], args: ['echo hi'] });
    assert.deepEqual(detail.services[0]!.nas_storage_config?.map((mount) => mount.storage_id), [volume.storage_id]);
    assert.deepEqual(
      (detail.services[0]!.env ?? []).map((variable) => [variable.name, variable.value]),
      [
        ['MODE', 'fast'],
        ['HF_TOKEN', 'hf_contracttoken123'],
      ],
    );

    // Saved back as a spec: the token is a reference again, and planning it (without the id) builds the same job.
    const saved = specFromJob(detail, undefined);
    assert.ok(!JSON.stringify(saved.spec).includes('hf_contracttoken123'));
    const { taskId: _id, ...again } = saved.spec;
    const secrets = new Map(saved.secrets.map((secret) => [secret.name, secret.value]));
    const replan = await planJobSpec(again, { ...context, resolveSecret: async (ref) => ('secret' in ref ? secrets.get(ref.secret) : undefined) });
    assert.deepEqual(replan.body.job_support, plan.body.job_support);
    assert.deepEqual(replan.body.services[0]!.env, plan.body.services[0]!.env);
    assert.deepEqual(replan.body.services[0]!.start_script, plan.body.services[0]!.start_script);
    assert.equal(replan.body.resources[0]!.mark, plan.body.resources[0]!.mark);
  });

  it('applying a plan that mounts a volume of another region is refused with the reason before anything is sent', async () => {
    const volume = (await listVolumes(client)).find((candidate) => candidate.status === 'Active');
    assert.ok(volume);
    const elsewhere = (await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' })).results.flatMap((device) => device.regions).find((region) => region.region_name !== volume.region.name && region.inventory > 0);
    assert.ok(elsewhere);
    const spec = await specIn(elsewhere.region_name, volume.storage_id);
    const plan = await planJobSpec(spec, context);
    const seen = new Set(sandbox.requests);
    await assert.rejects(applyJobPlan(plan, context), (error: unknown) => error instanceof Error && error.message.includes(`is in ${volume.region.name}, the task runs in ${elsewhere.region_name}`));
    assert.deepEqual(sandbox.requests.filter((request) => !seen.has(request) && request.path.startsWith('/api/task/job/create')), [], 'nothing was sent');
  });

  it('agent tools: plan a job file (cost and cap), apply it with the plan in the confirmation; a file naming a job is refused', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'spec-jobs-'));
    try {
      const spec = await specIn(undefined, 1);
      const { nas: _nas, env: _env, ...service } = spec.services[0]!;
      writeFileSync(path.join(folder, 'train.job.json'), JSON.stringify({ ...spec, services: [service] }, null, 2));
      const remembered: number[] = [];
      const files = { ...confinedSpecFiles([folder], { size: async (file) => statSync(file).size, read: async (file) => readFileSync(file) }, async () => undefined, true), rememberTaskId: async (_path: string, id: number) => void remembered.push(id) };
      const tools: ToolContext = { client, profile: { label: 'sandbox', environment: 'sandbox' }, specFiles: files };
      const plan = await runTool(findTool('compute_plan_spec')!, { path: 'train.job.json' }, tools);
      assert.equal(plan.isError, false, plan.text);
      assert.match(plan.text, /Create job "spec-train": 2 completion\(s\), 2 pod\(s\) at once, on demand/);
      assert.match(plan.text, /¥[\d.]+\/h while 2 pod\(s\) run .* at most ¥[\d.,]+/);
      const confirm = await confirmTool(findTool('compute_apply_spec')!, { path: 'train.job.json' }, tools);
      assert.match(confirm?.message ?? '', /at most ¥/);
      const applied = await runTool(findTool('compute_apply_spec')!, { path: 'train.job.json' }, tools);
      assert.equal(applied.isError, false, applied.text);
      assert.equal(remembered.length, 1);
      assert.equal((await client.call('job.detail', { task_id: remembered[0]! })).task_name, 'spec-train');

      writeFileSync(path.join(folder, 'done.job.json'), JSON.stringify({ ...spec, services: [service], taskId: remembered[0] }, null, 2));
      const again = await runTool(findTool('compute_plan_spec')!, { path: 'done.job.json' }, tools);
      assert.match(again.text, /Jobs cannot be updated/);
      const refused = await runTool(findTool('compute_apply_spec')!, { path: 'done.job.json' }, tools);
      assert.equal(refused.isError, true);
      assert.match(refused.text, /cannot be updated/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
