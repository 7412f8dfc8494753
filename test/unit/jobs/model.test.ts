// The job status model, cost and estimate, time formats, run.json and the create body.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateJobCost } from '../../../src/core/jobs/cost';
import { buildJobBody, shellQuote } from '../../../src/core/jobs/jobBody';
import type { JobSummary } from '../../../src/core/jobs/operations';
import { parseRunConfig, RunConfigError, serializeRunConfig, type RunConfig } from '../../../src/core/jobs/runConfig';
import { costPointsFor, jobCostPoints, jobPhase, jobView, parseExitCode } from '../../../src/core/jobs/status';
import { parseJobTime } from '../../../src/core/jobs/time';

function summary(overrides: Partial<JobSummary> = {}, execution: Partial<JobSummary['job_status']> = {}): JobSummary {
  return {
    task_id: 7,
    task_name: 'train',
    sub_type: null,
    schedule_status: null,
    resources: [],
    status: 'Running',
    points: 2,
    runing_points: 1,
    billing_value: 0,
    forecast_value: 0,
    create_time: '2026-04-21 09:04:20.500576 +08:00',
    job_support: { estimated_exec_sec: null, timeout_sec: 600, parallelism: 2, mod_param: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null } },
    job_status: { create_time: '2026-04-21T01:00:00Z', status: 'Running', completion_time: null, active_pods: 2, succeeded_pods: 0, failed_pods: 0, completion_mode: 'NonIndexed', ...execution },
    services: [],
    ...overrides,
  };
}

describe('job status model', () => {
  it('reads one phase from the three status fields', () => {
    assert.equal(jobPhase(summary({ status: 'Pending' }, { status: 'Pending' })), 'pending');
    assert.equal(jobPhase(summary({ status: 'Pending', sub_type: 'Spot', schedule_status: 'Queued' }, { status: 'Pending' })), 'queued');
    assert.equal(jobPhase(summary()), 'running');
    assert.equal(jobPhase(summary({ status: 'End' }, { status: 'Complete' })), 'succeeded');
    assert.equal(jobPhase(summary({ status: 'Running' }, { status: 'Failed' })), 'failed', 'Failed ends it even before status says End');
    assert.equal(jobPhase(summary({ status: 'End' }, { status: 'Manual' })), 'stopped');
    assert.equal(jobPhase(summary({ status: 'End' }, { status: 'Running' })), 'stopped');
  });

  it('elapsed runs from the start to the completion (or now); cost is price × pod-seconds rounded once', () => {
    const start = Date.UTC(2026, 3, 21, 1, 0, 0);
    const running = jobView(summary(), start + 90_500);
    assert.equal(running.elapsedSeconds, 90);
    assert.equal(running.active, 2);
    const done = jobView(summary({ status: 'End' }, { status: 'Complete', completion_time: '2026-04-21T01:02:00Z' }), start + 10 * 3600_000);
    assert.equal(done.elapsedSeconds, 120);
    assert.equal(costPointsFor(466.4, 3), 1399, 'rounded once, not per second (466 × 3 = 1398)');
    assert.equal(jobCostPoints(running, 466, 180), 83_880);
    assert.equal(jobCostPoints({ ...running, billedPoints: 100_000 }, 466, 180), 100_000, 'never below what was billed');
  });

  it('parses the three time formats to the same instant', () => {
    const instant = Date.UTC(2026, 3, 21, 1, 4, 20, 500);
    assert.equal(parseJobTime('2026-04-21T09:04:20.500576+08:00'), instant);
    assert.equal(parseJobTime('2026-04-21 09:04:20.500576 +08:00'), instant);
    assert.equal(parseJobTime('2026-04-21T01:04:20.5Z'), instant);
    assert.equal(parseJobTime('yesterday'), undefined);
    assert.equal(parseJobTime(null), undefined);
  });
});

describe('job cost estimate', () => {
  it('rate is price × pods at once; the cap is all of them for the whole timeout', () => {
    const estimate = estimateJobCost({ pointsPerSecond: 466, completions: 4, parallelism: 2, timeoutSec: 3600, estimatedSec: 600 });
    assert.equal(estimate.ratePointsPerSecond, 932);
    assert.equal(estimate.capPoints, 466 * 2 * 3600);
    assert.equal(estimate.expectedPoints, 466 * 4 * 600);
    assert.equal(estimate.rateText, '¥3.3552/h'); // rates are exact from points (src/core/spend/units.ts)
    assert.equal(estimate.capText, '¥3.36');
    const noEstimate = estimateJobCost({ pointsPerSecond: 466, completions: 1, parallelism: 5, timeoutSec: 60 });
    assert.equal(noEstimate.ratePointsPerSecond, 466, 'never more pods at once than completions');
    assert.equal(noEstimate.expectedPoints, undefined);
  });
});

describe('.compute/run.json', () => {
  const config: RunConfig = {
    version: 1,
    name: 'train',
    command: 'python train.py',
    image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime',
    folder: '',
    resource: { deviceName: 'RTX 4090', region: 'beijing-jxq-p1' },
    spot: true,
    estimatedSec: 600,
    timeoutSec: 3600,
    completions: 1,
    parallelism: 1,
    indexed: false,
    retries: 0,
    env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
    volume: { storageId: 1001, targetDir: '/mnt/work', remoteDir: '/projects/train' },
  };

  it('round-trips', () => {
    assert.deepEqual(parseRunConfig(serializeRunConfig(config)), config);
  });

  it('refuses what a hostile or broken file could hold', () => {
    const bad = (patch: Record<string, unknown>, field: string): void =>
      assert.throws(() => parseRunConfig(JSON.stringify({ ...config, ...patch })), (error: unknown) => error instanceof RunConfigError && error.message.includes(field));
    bad({ version: 2 }, 'version');
    bad({ folder: '../outside' }, 'folder');
    bad({ env: [{ name: 'HF_TOKEN', value: 'x' }] }, 'secret');
    bad({ volume: { storageId: 1, targetDir: 'relative', remoteDir: '/a' } }, 'targetDir');
    bad({ command: 'a\u001b]0;x' }, 'control');
    // C1 controls too: 8-bit CSI and OSC act like ESC [ and ESC ] in a terminal.
    for (const c1 of ['\u009b2J', '\u009d52;c;eA==\u009c', '\u0085', '\u0080', '\u009f']) {
      bad({ name: `job${c1}` }, 'control');
      bad({ command: `run ${c1}` }, 'control');
      bad({ image: `img${c1}` }, 'control');
      bad({ volume: { ...config.volume, remoteDir: `/projects${c1}` } }, 'control');
    }
    // A name, image or path holds no tab or line break either (a command or an env value may).
    for (const c0 of ['\t', '\n', '\r']) {
      bad({ name: `job${c0}x` }, 'control');
      bad({ image: `img${c0}` }, 'control');
      bad({ volume: { ...config.volume, remoteDir: `/projects${c0}` } }, 'control');
      bad({ folder: `src${c0}` }, 'control');
    }
    assert.equal(parseRunConfig(JSON.stringify({ ...config, command: 'set -e\n\tpython train.py' })).command, 'set -e\n\tpython train.py');
    bad({ timeoutSec: 1.5 }, 'timeoutSec');
    bad({ estimatedSec: 4000 }, 'estimatedSec');
    assert.throws(() => parseRunConfig('{'), RunConfigError);
    assert.throws(() => parseRunConfig(' '.repeat(70_000)), RunConfigError);
  });
});

describe('job create body', () => {
  it('runs the command with /bin/sh -c in the folder (quoted as data) and maps retries to backoff or per-index limits', () => {
    const resource = { resource: { device_name: 'RTX 4090', region: 'r', gpu_name: 'RTX 4090', gpu_count: 1, gpu_memory: 24560, memory: 64512, cpu_cores: 16 }, region_name: 'R', mark: 'm' };
    const body = buildJobBody({ name: 'n', resource, image: 'img', command: 'python train.py', workdir: "/mnt/work/it's", spot: true, estimatedSec: 60, timeoutSec: 120, completions: 2, parallelism: 4, indexed: false, retries: 2, env: [], volume: { storageId: 9, targetDir: '/mnt/work' } });
    assert.deepEqual(body.services[0]?.start_script, { command: ['/bin/sh', '-c'], args: [`cd '/mnt/work/it'\\''s' && python train.py`] });
    assert.equal(body.sub_type, 'Spot');
    assert.equal(body.job_support.parallelism, 2);
    assert.deepEqual(body.job_support.mod_param, { default: { backoff_limit: 2, restart_policy: 'Never' }, index: null });
    assert.deepEqual(body.services[0]?.nas_storage_config, [{ storage_id: 9, target_dir: '/mnt/work' }]);
    const indexed = buildJobBody({ name: 'n', resource, image: 'img', command: 'x', spot: false, timeoutSec: 60, completions: 3, parallelism: 3, indexed: true, retries: 1, env: [] });
    assert.equal(indexed.sub_type, null);
    assert.equal(indexed.job_support.estimated_exec_sec, null);
    assert.deepEqual(indexed.job_support.mod_param, { default: null, index: { index_backoff_limit: 1, max_failed_index: null } });
    assert.equal(shellQuote("a'b"), `'a'\\''b'`);
  });
});

describe('exit code', () => {
  it('parses the documented string and the number seen in examples; anything else is no code', () => {
    assert.equal(parseExitCode('0'), 0);
    assert.equal(parseExitCode(' 137 '), 137);
    assert.equal(parseExitCode('-1'), -1);
    assert.equal(parseExitCode(2), 2);
    for (const value of [null, undefined, '', 'Error', '1.5', 1.5, '99999999999', {}, [], true]) assert.equal(parseExitCode(value), null, JSON.stringify(value));
  });
});
