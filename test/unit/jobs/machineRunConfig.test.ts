// run.json with a rented machine as the target (docs/machines.md "Run on a machine"): workspace content,
// so the machine id, the folder under the home and every value are checked; a batch job's file still
// reads as before, and a job file never reads as a machine run.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig, parseRunFile, runFileText, RunConfigError, serializeRunConfig, settingsFor, type MachineRunConfig, type RunConfig } from '../../../src/core/jobs/runConfig';

const machineRun: MachineRunConfig = {
  version: 1,
  target: 'machine',
  name: 'project',
  command: 'python train.py',
  folder: 'src',
  env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
  machine: { deviceId: 9001, remoteDir: 'runs/project' },
};

describe('run.json with a machine as the target', () => {
  it('reads back what it wrote', () => {
    assert.deepEqual(parseRunFile(serializeRunConfig(machineRun)), { kind: 'machine', config: machineRun });
  });

  it('refuses a run folder that leaves the home, and hostile fields', () => {
    const bad: [string, Record<string, unknown>][] = [
      ['machine.remoteDir', { machine: { deviceId: 9001, remoteDir: '/etc' } }],
      ['machine.remoteDir', { machine: { deviceId: 9001, remoteDir: 'runs/../../etc' } }],
      ['machine.remoteDir', { machine: { deviceId: 9001, remoteDir: '~root/x' } }],
      ['machine.remoteDir', { machine: { deviceId: 9001, remoteDir: 'a\\..\\b' } }],
      ['machine.remoteDir', { machine: { deviceId: 9001, remoteDir: './.' } }],
      ['machine.remoteDir', { machine: { deviceId: 9001, remoteDir: 'runs\n/x' } }],
      ['machine.deviceId', { machine: { deviceId: '9001; rm', remoteDir: 'runs' } }],
      ['machine.deviceId', { machine: { deviceId: -1, remoteDir: 'runs' } }],
      ['machine', { machine: 'host.example:22' }],
      ['target', { target: 'ssh://host' }],
      ['env[0].name', { env: [{ name: 'A B', value: '' }] }],
      ['env[0].name', { env: [{ name: 'API_TOKEN', value: 'x' }] }],
      ['command', { command: 'echo \u009b31m' }],
      ['folder', { folder: '../outside' }],
    ];
    for (const [field, patch] of bad) {
      assert.throws(() => parseRunFile(JSON.stringify({ ...machineRun, ...patch })), (error: unknown) => error instanceof RunConfigError && error.message.includes(field), field);
    }
  });

  it('keeps a batch job file a job, and a machine file is never read as a job', () => {
    assert.throws(() => parseRunConfig(serializeRunConfig(machineRun)), (error: unknown) => error instanceof RunConfigError && error.message.includes('target'));
    // No target is a batch job, which then needs a job's fields.
    assert.throws(() => parseRunFile(JSON.stringify({ ...machineRun, target: undefined })), (error: unknown) => error instanceof RunConfigError && error.message.includes('resource'));
  });

  it('switching the target task → machine → task keeps each target\'s settings (image, GPU, env, volume; the machine and its command)', () => {
    const job: RunConfig = {
      version: 1,
      name: 'project',
      command: 'python train.py --job',
      image: 'registry.example/team/torch:2.4-cu124',
      folder: 'src',
      resource: { deviceName: 'NVIDIA H800', region: 'cn-east-1' },
      spot: true,
      estimatedSec: 1200,
      timeoutSec: 7200,
      completions: 4,
      parallelism: 2,
      indexed: true,
      retries: 3,
      env: [{ name: 'WANDB_MODE', value: 'offline' }],
      volume: { storageId: 77, targetDir: '/mnt/data', remoteDir: '/runs/project' },
    };
    const first = parseRunFile(runFileText(job, undefined));
    const onMachine = parseRunFile(runFileText(machineRun, first));
    assert.equal(onMachine.kind, 'machine');
    assert.deepEqual(settingsFor(onMachine, 'job'), job, 'the job settings kept beside the machine run');
    const backToJob = parseRunFile(runFileText({ ...job, command: 'python train.py --again' }, onMachine));
    assert.deepEqual(backToJob.config, { ...job, command: 'python train.py --again' });
    assert.deepEqual(settingsFor(backToJob, 'machine'), machineRun, 'the machine run kept beside the job');
    assert.deepEqual(settingsFor(parseRunFile(runFileText(machineRun, backToJob)), 'job'), { ...job, command: 'python train.py --again' });
    // Only one level: what is kept never keeps another.
    assert.equal(JSON.stringify(JSON.parse(runFileText(machineRun, backToJob))).split('otherTarget').length, 2);
  });

  it('checks the kept settings as strictly as the run\'s own', () => {
    const bad: Record<string, unknown>[] = [
      { otherTarget: 'x' },
      { otherTarget: { ...machineRun, machine: { deviceId: 9001, remoteDir: '/etc' } } },
      { otherTarget: { ...machineRun } },
      { otherTarget: { ...machineRun, target: undefined } },
    ];
    for (const patch of bad) assert.throws(() => parseRunFile(JSON.stringify({ ...machineRun, ...patch })), RunConfigError, JSON.stringify(patch));
  });
});
