// The one preheat service behind every Preheat offer (src/core/preheat/preheatFollow.ts) against the strict
// sandbox: a cluster preheat of the asked region (all regions when none asked is a preheat region), each
// region's cache state reported on every look until done, the time it took; and the "not enabled" refusal
// read as such. The wait between looks is the test's (no sleeps of the platform's 10 s).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../src/core/compute/client';
import { preheatAndFollow, PREHEAT_LOOK_EVERY_MS, type RegionProgress } from '../../src/core/preheat/preheatFollow';
import { ImagePreheatService } from '../../src/core/preheat/preheatService';
import { preheatNotEnabled } from '../../src/core/preheat/preheatState';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

describe('preheat offers: one service against the sandbox', () => {
  let sandbox: Sandbox;
  let service: ImagePreheatService;
  let wakes = 0;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, preheatPendingMs: 0 });
    const client = createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }),
      retry: { baseDelayMs: 5, maxDelayMs: 100 },
    });
    service = new ImagePreheatService(() => client, () => void wakes++);
  });
  after(() => sandbox.close());

  const image = 'registry.example.com/team/app:1.0';

  it('preheats the asked region and reports each region on every look until done, with the time it took', async () => {
    sandbox.preheat.setSyncMs(0);
    const seen: (readonly RegionProgress[])[] = [];
    const waits: number[] = [];
    let clock = 1_000;
    const followed = await preheatAndFollow(service, image, {
      regions: ['tengxun-sheq-t1', 'not-a-preheat-region'],
      onProgress: (regions) => seen.push(regions),
      wait: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
      now: () => clock,
    });
    assert.equal(followed.done, true);
    assert.deepEqual(followed.regions.map((region) => [region.region, region.status]), [['tengxun-sheq-t1', 'Completed']]);
    assert.equal(followed.regions[0]?.regionName, '腾讯社区t1');
    assert.deepEqual(seen[0]?.map((region) => region.status), ['Begin'], 'reported before the first look');
    assert.ok(waits.every((ms) => ms === PREHEAT_LOOK_EVERY_MS), 'looks no faster than the platform asks');
    assert.equal(followed.elapsedMs, waits.length * PREHEAT_LOOK_EVERY_MS);
    const detail = await service.detail(followed.taskId);
    assert.deepEqual(detail?.regions?.map((region) => region.region), ['tengxun-sheq-t1'], 'only the asked preheat region was sent');
    assert.ok(wakes >= 1, 'the store was woken (the Image Preheat view shows it)');
  });

  it('caches in every preheat region when no asked region is one, and shows Syncing before Completed', async () => {
    sandbox.preheat.setSyncMs(60_000);
    const seen: string[][] = [];
    const followed = await preheatAndFollow(service, image, {
      regions: ['gpu-region-that-is-not-a-preheat-region'],
      onProgress: (regions) => {
        seen.push(regions.map((region) => region.status));
        // The first look shows the caches syncing; then they finish.
        if (regions.every((region) => region.status === 'Syncing')) sandbox.preheat.setSyncMs(0);
      },
      wait: async () => undefined,
    });
    assert.equal(followed.done, true);
    assert.equal(followed.regions.length, 2, 'both sandbox preheat regions');
    assert.ok(seen.some((statuses) => statuses.every((status) => status === 'Syncing')), `syncing seen: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.at(-1), ['Completed', 'Completed']);
  });

  it('stops following when cancelled, the preheat left running', async () => {
    sandbox.preheat.setSyncMs(60_000);
    const controller = new AbortController();
    const followed = await preheatAndFollow(service, image, { wait: async () => controller.abort(), signal: controller.signal });
    assert.equal(followed.done, false);
    assert.equal((await service.detail(followed.taskId))?.status, 'Running');
    await service.stop(followed.taskId);
  });

  it('an account that has not applied is refused before anything is created, in a way the editor words as "not enabled"', async () => {
    sandbox.preheat.setEnabled(false);
    try {
      await assert.rejects(preheatAndFollow(service, image, { wait: async () => undefined }), (error: unknown) => preheatNotEnabled(error));
    } finally {
      sandbox.preheat.setEnabled(true);
    }
  });
});
