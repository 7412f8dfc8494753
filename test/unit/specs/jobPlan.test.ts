// Job specs: the plan (what Deploy would create and its cost: ¥/h for the pods at once, the cap the
// timeout implies), a file that names a job (jobs cannot be updated), a job saved as a spec, the NAS
// check on the mount's line, and which of our diagnostics the editor leaves to its JSON validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import type { JobDetail } from '../../../src/core/jobs/operations';
import { jobEnvChoices, specFromJob } from '../../../src/core/specs/fromLive';
import { planJob } from '../../../src/core/specs/jobPlan';
import { checkSpec, describeJobPlan, type SpecNasVolume } from '../../../src/core/specs/runner';
import type { JobSpec, SecretRef } from '../../../src/core/specs/types';
import { editorRepeats } from '../../../src/core/specs/editorOverlap';
import { validateSpecText } from '../../../src/core/specs/validate';
import { DEVICES } from './fixtures';
import { specServicesOver } from '../../../src/core/specs/specServices';

const JOB: JobSpec = {
  kind: 'job',
  name: 'train',
  resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
  spot: true,
  estimatedSeconds: 600,
  completions: 4,
  parallelism: 2,
  timeoutSeconds: 1800,
  services: [{ name: 'main', image: 'pytorch/pytorch:2.4', command: ['python', 'train.py'], env: { MODE: 'fast', HF_TOKEN: { secret: 'train-HF_TOKEN' } }, nas: [{ volumeId: 7, targetDir: '/mnt/nas' }] }],
};

const resolver = (values: Record<string, string>) => async (ref: SecretRef) => ('secret' in ref ? values[ref.secret] : undefined);

/** The client answers only the resource search (the only call checkSpec makes without a job id). */
function searchOnly(): ComputeClient {
  return { call: async (operation: string) => (operation === 'resource.search' ? { count: DEVICES.length, results: DEVICES } : assert.fail(`unexpected ${operation}`)) } as unknown as ComputeClient;
}

describe('job spec plan', () => {
  it('says what Deploy would create and what it costs: per hour for the pods at once, at most pods × timeout', async () => {
    const plan = await planJob(JOB, DEVICES, undefined, resolver({ 'train-HF_TOKEN': 'hf_secretvalue123' }));
    assert.equal(plan.action, 'create');
    assert.equal(plan.pods, 2);
    // 466 points/s per pod (fixtures) → ¥1.6776/h; two pods → ¥3.3552/h; cap 466 × 2 × 1800 points.
    assert.ok(Math.abs(plan.podYuanPerHour! - 1.6776) < 1e-9);
    assert.ok(Math.abs(plan.yuanPerHour! - 2 * 1.6776) < 1e-9);
    assert.ok(Math.abs(plan.capYuan! - (466 * 2 * 1800) / 1e6) < 1e-9);
    assert.ok(Math.abs(plan.expectedYuan! - (466 * 4 * 600) / 1e6) < 1e-9, 'expected: completions × estimate');
    assert.equal(plan.body.sub_type, 'Spot');
    assert.equal(plan.body.points, 4);
    assert.deepEqual(plan.body.services[0]!.env, [
      { name: 'MODE', value: 'fast' },
      { name: 'HF_TOKEN', value: 'hf_secretvalue123' },
    ]);
    assert.deepEqual(plan.missingSecrets, []);
    const shown = JSON.stringify(plan.desired) + describeJobPlan(plan).join('\n');
    assert.ok(!shown.includes('hf_secretvalue123'), 'the readable plan never holds a secret value');
    assert.match(shown, /«secret: train-HF_TOKEN»/);
    assert.match(describeJobPlan(plan).join('\n'), /¥3\.3552\/h while 2 pod\(s\) run .*at most ¥1\.68/);
  });

  it('a file that names a job plans a new one and says jobs cannot be updated', async () => {
    const plan = await planJob({ ...JOB, taskId: 6799 }, DEVICES, { task_id: 6799, status: 'End' }, resolver({}));
    assert.equal(plan.action, 'exists');
    assert.equal(plan.liveStatus, 'End');
    assert.deepEqual(plan.missingSecrets, [{ secret: 'train-HF_TOKEN' }]);
    const text = describeJobPlan(plan).join('\n');
    assert.match(text, /already created job 6799 \(End\)\. Jobs cannot be updated/);
    assert.match(text, /Missing secrets .*train-HF_TOKEN/);
  });

  it('parallelism above completions runs only as many pods as completions', async () => {
    const plan = await planJob({ ...JOB, completions: 1, parallelism: 5 }, DEVICES, undefined, resolver({ 'train-HF_TOKEN': 'x' }));
    assert.equal(plan.pods, 1);
    assert.ok(Math.abs(plan.yuanPerHour! - 1.6776) < 1e-9);
  });
});

describe('job timing', () => {
  it('warns on the timeout when the rounds of parallel pods outlast it at the estimated run time', () => {
    const text = (job: Partial<JobSpec>) => JSON.stringify({ ...JOB, services: [{ name: 'main', image: 'pytorch/pytorch:2.4' }], ...job }, null, 2);
    const warned = validateSpecText(text({ completions: 4, parallelism: 2, estimatedSeconds: 1000, timeoutSeconds: 1800 }), 'json').diagnostics.find((diagnostic) => diagnostic.path === 'timeoutSeconds');
    assert.equal(warned?.severity, 'warning');
    assert.match(warned.message, /2 rounds .* about 33 min 20 s/);
    const fits = validateSpecText(text({ completions: 4, parallelism: 2, estimatedSeconds: 900, timeoutSeconds: 1800 }), 'json').diagnostics;
    assert.deepEqual(fits.filter((diagnostic) => diagnostic.path === 'timeoutSeconds'), []);
  });
});

describe('job saved as a spec file', () => {
  const detail = {
    task_id: 1962285,
    task_name: 'job-202604210858',
    sub_type: null,
    schedule_status: null,
    deployment_name: 'job-11391-olueehus',
    status: 'Running',
    points: 1,
    runing_points: 1,
    billing_points: 1,
    billing_time: 0,
    billing_value: 0,
    forecast_value: 466,
    resources: [{ resource: { ...DEVICES[0]!.regions[0]!.mark.resource }, region_name: '北京一区', mark: 'mark-4090-beijing-jxq-p1' }],
    services: [
      {
        service_id: 1963001,
        service_name: 'container-01',
        service_image: 'harbor.suanleme.cn/trsnls6j/ubuntu:22.04',
        remote_ports: [{ url: 'https://job-11391-olueehus-80.550w.link', service_port: 80 }],
        env: [
          { name: 'key1', value: 'value1', value_from: null },
          { name: 'API_KEY', value: 'sk-abcdefghijklmnop', value_from: null },
          { name: 'POD', value: null, value_from: { field_ref: { field_path: 'metadata.name' } } },
        ],
        start_script: { command: ['sleep'], args: ['300'] },
        resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 },
        nas_storage_config: [{ storage_id: 1001, target_dir: '/mnt/nas' }],
      },
    ],
    share_disk_volumes: null,
    share_mem_volumes: null,
    task_qos: null,
    job_support: { estimated_exec_sec: null, timeout_sec: 1200, parallelism: 1, mod_param: { default: { backoff_limit: 3, restart_policy: 'OnFailure' }, index: null } },
    job_status: { create_time: '2026-04-21T01:01:23Z', status: 'Running', completion_time: null, active_pods: 1, succeeded_pods: 0, failed_pods: 0, completion_mode: 'NonIndexed' },
    create_time: '2026-04-21T09:01:23.441992+08:00',
    last_update_time: '2026-04-21T09:01:53.523971+08:00',
  } as unknown as JobDetail;

  it('credentials become references, field references are reported as left out, the file is valid and plans the same job', async () => {
    const saved = specFromJob(detail, 'sandbox');
    const text = JSON.stringify(saved.spec, null, 2);
    assert.ok(!text.includes('sk-abcdefghijklmnop'), 'no credential in the file');
    assert.deepEqual(saved.secrets, [
      { name: 'job-202604210858-key1', value: 'value1' },
      { name: 'job-202604210858-API_KEY', value: 'sk-abcdefghijklmnop' },
    ]);
    assert.ok(!text.includes('value1'), 'a value the user did not pick to stay plain is not in the file');
    const picked = specFromJob(detail, 'sandbox', { keepPlain: (_service, name) => name === 'key1' });
    assert.deepEqual(picked.spec.services[0]!.env, { key1: 'value1', API_KEY: { secret: 'job-202604210858-API_KEY' } });
    assert.deepEqual(jobEnvChoices(detail).map((choice) => [choice.name, choice.looksSecret]), [
      ['key1', false],
      ['API_KEY', true],
    ]);
    assert.deepEqual(saved.dropped, ['services[0].env.POD']);
    assert.equal(saved.spec.taskId, 1962285);
    const validation = validateSpecText(text, 'json');
    assert.deepEqual(validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'), []);

    const { taskId: _taskId, ...again } = saved.spec;
    const plan = await planJob(again, DEVICES, undefined, resolver(Object.fromEntries(saved.secrets.map((secret) => [secret.name, secret.value]))));
    const service = plan.body.services[0]!;
    const live = detail.services[0]!;
    assert.equal(service.service_image, live.service_image);
    assert.deepEqual(service.start_script, live.start_script);
    assert.deepEqual(service.env, [
      { name: 'key1', value: 'value1' },
      { name: 'API_KEY', value: 'sk-abcdefghijklmnop' },
    ]);
    assert.deepEqual(service.nas_storage_config, live.nas_storage_config);
    assert.deepEqual(service.remote_ports, [{ service_port: 80 }]);
    assert.deepEqual(plan.body.job_support, detail.job_support);
    assert.equal(plan.body.resources[0]!.mark, 'mark-4090-beijing-jxq-p1');
  });
});

describe('NAS check', () => {
  const volumes = (list: SpecNasVolume[]) => async () => list;

  it('the volume must exist, be Active and be in the region; the finding names the mount', async () => {
    const cases: [SpecNasVolume[], RegExp | undefined][] = [
      [[{ id: 7, regionName: '北京一区', region: 'bj-001', status: 'Active' }], undefined],
      [[], /NAS volume 7 does not exist/],
      [[{ id: 7, regionName: '上海一区', region: 'sh-001', status: 'Active' }], /NAS volume 7 is in 上海一区, the task runs in 北京一区/],
      [[{ id: 7, regionName: '北京一区', region: 'bj-001', status: 'Expanding' }], /NAS volume 7 is Expanding, not Active/],
    ];
    for (const [list, expected] of cases) {
      const checks = await checkSpec(JOB, { services: specServicesOver(searchOnly), resolveSecret: async () => undefined, nasVolumes: volumes(list) });
      const nas = checks.filter((check) => check.path.includes('nas'));
      if (!expected) assert.deepEqual(nas, []);
      else {
        assert.equal(nas.length, 1, JSON.stringify(checks));
        assert.equal(nas[0]!.severity, 'error');
        assert.deepEqual(nas[0]!.path, ['services', 0, 'nas', 0, 'volumeId']);
        assert.match(nas[0]!.message, expected);
      }
    }
  });

  it('the mount path locates the line of the volume id in JSON and YAML', () => {
    const json = JSON.stringify(JOB, null, 2);
    const jsonLine = json.split('\n').findIndex((line) => line.includes('"volumeId"'));
    assert.equal(validateSpecText(json, 'json').source.positionAt(validateSpecText(json, 'json').source.locate(['services', 0, 'nas', 0, 'volumeId'], 'key').start).line, jsonLine);
    const yaml = ['kind: job', 'name: train', 'resource: { gpu: "4090", gpuCount: 1, region: beijing-jxq-p1 }', 'completions: 1', 'parallelism: 1', 'timeoutSeconds: 60', 'services:', '  - name: main', '    image: pytorch/pytorch:2.4', '    nas:', '      - volumeId: 7', '        targetDir: /mnt/nas', ''].join('\n');
    const source = validateSpecText(yaml, 'yaml').source;
    assert.equal(source.positionAt(source.locate(['services', 0, 'nas', 0, 'volumeId'], 'key').start).line, 10);
  });

  it('a job spec with a job id gets a note that jobs cannot be updated', async () => {
    const checks = await checkSpec({ ...JOB, services: [{ name: 'main', image: 'pytorch/pytorch:2.4' }], taskId: 5 }, { services: specServicesOver(searchOnly), resolveSecret: async () => undefined });
    assert.ok(checks.some((check) => check.path[0] === 'taskId' && /cannot be updated/.test(check.message)));
  });
});

describe('diagnostics shown once in the editor', () => {
  const typo = ['{', '  "kind": "task",', '  "name": "t",', '  "nodes": 1,', '  "resource": { "gpu": "4090", "gpuCount": 1, "region": "r", "memoryMi": "16GB" },', '  "services": [', '    { "name": "web", "imgae": "nginx:1.27", "image": "nginx:1.27", "ports": [80] },', '    { "name": "web", "image": "nginx:1.27", "ports": [81] }', '  ]', '}'].join('\n');

  it('JSON: simple schema problems are left to the editor JSON validation; unknown fields and units are ours, hint in the message and a Quick Fix', () => {
    const diagnostics = validateSpecText(typo, 'json').diagnostics;
    const field = diagnostics.find((diagnostic) => diagnostic.message.includes('imgae'))!;
    assert.equal(field.origin, 'additionalProperties');
    assert.equal(editorRepeats(field, 'json'), false, 'the editor schema does not close objects: ours names the field meant');
    assert.match(field.message, /did you mean "image"/);
    assert.deepEqual(field.fix, { kind: 'rename', value: 'image', text: '"image"' });
    const memory = diagnostics.find((diagnostic) => diagnostic.message.includes('16384'))!;
    assert.equal(editorRepeats(memory, 'json'), false, 'the editor schema has no type on unit fields: ours says the value in Mi');
    assert.deepEqual(memory.fix, { kind: 'mebibytes', value: '16384', text: '16384' });
    const wrongType = validateSpecText(typo.replace('"nodes": 1', '"nodes": "one"'), 'json').diagnostics.find((diagnostic) => diagnostic.path === 'nodes')!;
    assert.equal(editorRepeats(wrongType, 'json'), true, 'a plain type error: the JSON service says it the same');
    const twice = diagnostics.find((diagnostic) => diagnostic.message.includes('used twice'))!;
    assert.equal(editorRepeats(twice, 'json'), false, 'a rule the schema cannot express is ours alone');
    const tiny = validateSpecText(typo.replace('"16GB"', '16'), 'json').diagnostics.find((diagnostic) => diagnostic.message.includes('tiny'))!;
    assert.equal(editorRepeats(tiny, 'json'), false, 'the schema has no opinion on a tiny memory');
    const broken = validateSpecText('{ "kind": "task", }', 'json').diagnostics;
    assert.ok(broken.length > 0 && broken.every((diagnostic) => editorRepeats(diagnostic, 'json')), 'syntax errors: the JSON service reports them');
  });

  it('YAML keeps every diagnostic of ours, and a rename fix is the bare key', () => {
    const yaml = ['kind: task', 'name: t', 'nodes: 1', 'resource: { gpu: "4090", gpuCount: 1, region: r }', 'services:', '  - name: web', '    imgae: nginx:1.27', '    image: nginx:1.27', '    ports: [80]', ''].join('\n');
    const diagnostics = validateSpecText(yaml, 'yaml').diagnostics;
    assert.ok(diagnostics.length > 0);
    assert.ok(diagnostics.every((diagnostic) => !editorRepeats(diagnostic, 'yaml')));
    assert.deepEqual(diagnostics.find((diagnostic) => diagnostic.message.includes('imgae'))?.fix, { kind: 'rename', value: 'image', text: 'image' });
  });

  it('a file refused for its size is ours to say (the JSON service has no such limit)', () => {
    const huge = `{"kind": "task", "name": "${'x'.repeat(600 * 1024)}"}`;
    const diagnostics = validateSpecText(huge, 'json').diagnostics;
    assert.equal(diagnostics.length, 1);
    assert.equal(editorRepeats(diagnostics[0]!, 'json'), false);
  });
});
