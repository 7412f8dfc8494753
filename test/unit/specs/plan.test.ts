import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { specFromTask, taskEnvChoices } from '../../../src/core/specs/fromLive';
import { disabledHealthChecks } from '../../../src/core/specs/healthChecks';
import { buildJobBody } from '../../../src/core/specs/jobBody';
import { findOffer } from '../../../src/core/specs/offers';
import { planTask, SpecPlanError } from '../../../src/core/specs/plan';
import { specPathFromMessage } from '../../../src/core/specs/platformErrors';
import { parseEnvText, type SecretResolver } from '../../../src/core/specs/secrets';
import type { JobSpec, TaskSpec } from '../../../src/core/specs/types';
import { validateSpecText } from '../../../src/core/specs/validate';
import { DEVICES, liveTask } from './fixtures';

function resolverFor(secrets: { name: string; value: string }[]): SecretResolver {
  return async (ref) => ('secret' in ref ? secrets.find((secret) => secret.name === ref.secret)?.value : undefined);
}

describe('spec from a live task', () => {
  it('turns every env value into a reference by default, even one that does not look like a credential; the file validates', () => {
    const saved = specFromTask(liveTask(), 'sandbox');
    const env = saved.spec.services[0]!.env!;
    assert.deepEqual(env.MODE, { secret: 'demo-api-MODE' });
    assert.deepEqual(env.HF_TOKEN, { secret: 'demo-api-HF_TOKEN' });
    assert.deepEqual(saved.secrets, [
      { name: 'demo-api-MODE', value: 'prod' },
      { name: 'demo-api-HF_TOKEN', value: 'hf_abcdefghijklmnop' },
    ]);
    const text = JSON.stringify(saved.spec, null, 2);
    assert.ok(!text.includes('hf_abcdefghijklmnop') && !text.includes('prod'), 'no value is in the file');
    assert.deepEqual(validateSpecText(text, 'json').diagnostics, []);
  });

  it('keeps plain only the values the user picked, whatever they look like', () => {
    const saved = specFromTask(liveTask(), 'sandbox', { keepPlain: (service, name) => service === 0 && (name === 'MODE' || name === 'HF_TOKEN') });
    assert.deepEqual(saved.spec.services[0]!.env, { MODE: 'prod', HF_TOKEN: 'hf_abcdefghijklmnop' });
    assert.deepEqual(saved.secrets, []);
    assert.deepEqual(taskEnvChoices(liveTask()).map((choice) => [choice.name, choice.looksSecret]), [
      ['MODE', false],
      ['HF_TOKEN', true],
    ]);
  });

  it('plans no difference for the file saved from the task', async () => {
    const saved = specFromTask(liveTask(), 'sandbox');
    const plan = await planTask(saved.spec, DEVICES, liveTask(), resolverFor(saved.secrets));
    assert.equal(plan.action, 'update');
    assert.deepEqual(plan.changes, []);
    assert.equal(plan.costBefore, plan.costAfter);
  });
});

describe('task plan', () => {
  it('names exactly the edited fields (node count, env, image) and the cost before and after', async () => {
    const saved = specFromTask(liveTask(), 'sandbox');
    const spec: TaskSpec = structuredClone(saved.spec);
    spec.nodes = 3;
    spec.services[0]!.image = 'harbor.suanleme.cn/public-hub/dailyhot:2.0';
    spec.services[0]!.env = { ...spec.services[0]!.env, MODE: 'staging', EXTRA: '1' };
    const plan = await planTask(spec, DEVICES, liveTask(), resolverFor(saved.secrets));
    assert.deepEqual(
      plan.changes.map((change) => [change.path, change.kind]),
      [
        ['nodes', 'change'],
        ['services[0].image', 'change'],
        ['services[0].env.MODE', 'change'],
        ['services[0].env.EXTRA', 'add'],
      ],
    );
    // 466 points/s per node = ¥1.6776/h; 1 node before, 3 after.
    assert.ok(Math.abs(plan.costBefore! - 1.6776) < 1e-9);
    assert.ok(Math.abs(plan.costAfter! - 3 * 1.6776) < 1e-9);
    // The update body is the whole task: what the file says, nothing kept from the live task implicitly.
    assert.equal(plan.body.task_id, 1229831);
    assert.equal(plan.body.points, 3);
    assert.deepEqual(parseEnvText(plan.body.services[0]!.env), { MODE: 'staging', HF_TOKEN: 'hf_abcdefghijklmnop', EXTRA: '1' });
    // Update refuses null probes (docs/sandbox-rules.md): a live task without them gets every probe off.
    assert.deepEqual(plan.body.services[0]!.health_checks, disabledHealthChecks());
  });

  it('keeps the live probes when the file has none: sent back, and not planned as cleared', async () => {
    const probe = { switch: true, probe_type: 'httpGet' as const, path: '/healthz', port: 6688, initial_delay_seconds: 5, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 };
    const live = liveTask();
    live.services[0]!.health_checks = { liveness_probe: probe };
    const saved = specFromTask(live, 'sandbox');
    const { healthChecks: _fromLive, ...service } = saved.spec.services[0]!;
    const spec: TaskSpec = { ...saved.spec, services: [{ ...service, image: 'harbor.suanleme.cn/public-hub/dailyhot:2.0' }] };
    const plan = await planTask(spec, DEVICES, live, resolverFor(saved.secrets));
    assert.deepEqual(plan.body.services[0]!.health_checks, { ...disabledHealthChecks(), liveness_probe: probe }, 'the live probe, the two it lacks off: update needs all three');
    assert.deepEqual(plan.changes.map((change) => [change.path, change.kind]), [['services[0].image', 'change']], 'nothing about health checks is reset');
  });

  it('reads probes that are all off as none: a file saved from such a task has no healthChecks and plans no difference', async () => {
    const live = liveTask();
    live.services[0]!.health_checks = { ...disabledHealthChecks() };
    const saved = specFromTask(live, 'sandbox');
    assert.equal(saved.spec.services[0]!.healthChecks, undefined);
    const plan = await planTask(saved.spec, DEVICES, live, resolverFor(saved.secrets));
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(plan.body.services[0]!.health_checks, disabledHealthChecks());
  });

  it('lists as reset what the file leaves out, and hides live env values that differ', async () => {
    const saved = specFromTask(liveTask(), 'sandbox', { keepPlain: (_service, name) => name === 'MODE' });
    const spec: TaskSpec = structuredClone(saved.spec);
    delete spec.services[0]!.sharedMemoryMi;
    spec.services[0]!.env = { MODE: 'prod' };
    const plan = await planTask(spec, DEVICES, liveTask(), resolverFor(saved.secrets));
    const resets = plan.changes.filter((change) => change.kind === 'reset').map((change) => change.path);
    assert.deepEqual(resets.sort(), ['services[0].env.HF_TOKEN', 'services[0].sharedMemoryMi']);
    assert.equal(plan.body.services[0]!.shared_mem_size, null);
    const shown = JSON.stringify([plan.live, plan.desired, plan.changes]);
    assert.ok(!shown.includes('hf_abcdefghijklmnop'), 'no secret value in what a plan shows');
  });

  it('marks a missing secret and refuses an unknown resource with what exists', async () => {
    const saved = specFromTask(liveTask(), 'sandbox', { keepPlain: (_service, name) => name === 'MODE' });
    const plan = await planTask(saved.spec, DEVICES, liveTask(), async () => undefined);
    assert.deepEqual(plan.missingSecrets, [{ secret: 'demo-api-HF_TOKEN' }]);
    const spec: TaskSpec = { ...saved.spec, resource: { gpu: 'A100', gpuCount: 1, region: 'x' } };
    await assert.rejects(planTask(spec, DEVICES, undefined, async () => undefined), (error: unknown) => error instanceof SpecPlanError && error.path === 'resource' && /4090/.test(error.message));
    assert.match(JSON.stringify(findOffer(DEVICES, { gpu: '4090', gpuCount: 1, region: 'tokyo' })), /beijing-jxq-p1/);
    assert.ok('offer' in findOffer(DEVICES, { gpu: '4090', gpuCount: 1, region: '北京一区' }));
  });

  it('plans a create with the cost of the nodes asked for', async () => {
    const saved = specFromTask(liveTask(), undefined);
    const { taskId: _taskId, ...spec } = saved.spec;
    const plan = await planTask({ ...spec, nodes: 2 }, DEVICES, undefined, resolverFor(saved.secrets));
    assert.equal(plan.action, 'create');
    assert.equal(plan.body.task_type, 'Deployment');
    assert.equal(plan.body.resources[0]!.mark, 'mark-4090-beijing-jxq-p1');
    assert.ok(Math.abs(plan.costAfter! - 2 * 1.6776) < 1e-9);
  });
});

describe('job spec body', () => {
  it('builds the job create body of the platform reference (§5.2)', async () => {
    const spec: JobSpec = {
      kind: 'job',
      name: 'train',
      resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
      spot: true,
      estimatedSeconds: 600,
      completions: 4,
      parallelism: 2,
      timeoutSeconds: 1200,
      retry: { backoffLimit: 2, restartPolicy: 'Never' },
      sharedMemoryVolumes: [{ name: 'shm', sizeMi: 8192 }],
      services: [{ name: 'main', image: 'pytorch/pytorch:2.4', command: ['python', 'train.py'], env: { KEY: { env: 'TEST_JOB_KEY' } }, sharedMemoryMounts: [{ volume: 'shm', targetDir: '/dev/shm' }] }],
    };
    const offer = findOffer(DEVICES, spec.resource);
    assert.ok('offer' in offer);
    const { body, missing } = await buildJobBody(spec, offer.offer, async (ref) => ('env' in ref ? 'v' : undefined));
    assert.deepEqual(missing, []);
    assert.equal(body.sub_type, 'Spot');
    assert.equal(body.points, 4);
    assert.deepEqual(body.job_support, { estimated_exec_sec: 600, timeout_sec: 1200, parallelism: 2, mod_param: { default: { backoff_limit: 2, restart_policy: 'Never' }, index: null } });
    assert.deepEqual(body.share_mem_volumes, [{ name: 'shm', size_limit: 8192 }]);
    assert.deepEqual(body.services[0]!.env, [{ name: 'KEY', value: 'v' }]);
    assert.deepEqual(body.services[0]!.start_script, { command: ['python', 'train.py'], args: [] });
    assert.deepEqual(body.services[0]!.share_mem_config, [{ volume_name: 'shm', target_dir: '/dev/shm' }]);
  });
});

describe('platform errors on spec fields', () => {
  it('maps a body field named in a message to the spec field', () => {
    assert.deepEqual(specPathFromMessage('services[0].service_image: is required'), ['services', 0, 'image']);
    assert.deepEqual(specPathFromMessage('invalid parameter points: must be at most 20'), ['nodes']);
    assert.deepEqual(specPathFromMessage('resources[0].mark: unknown mark'), ['resource']);
    assert.equal(specPathFromMessage('something went wrong'), undefined);
  });
});
