// NAS volumes as a kind of remote state: every page listed, at rest unless a volume is Creating,
// Expanding or Deleting, and a status change is news to the NAS view.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import type { NasVolume, VolumeStatus } from '../../../src/core/nas/operations';
import { VOLUME_STATE } from '../../../src/core/nas/volumeState';

function volume(id: number, status: VolumeStatus = 'Active', used = 0): NasVolume {
  return {
    storage_id: id,
    name: `vol-${id}`,
    region: { tag: 'bj-001', name: '北京一区' },
    storage_class: 'standard',
    storage_class_name: 'Standard',
    unit_price: 0,
    display_unit_price: '0.35',
    total_size: 1024 ** 3,
    used_size: used,
    status,
    namespace: 'ns',
    claim_name: 'claim',
    instance_count: 0,
    instances: [],
    create_time: '',
    last_update_time: '',
    error_code: null,
    error_message: null,
  } as NasVolume;
}

describe('VOLUME_STATE', () => {
  it('lists every page (205 volumes = 3 requests of at most 100)', async () => {
    const volumes = Array.from({ length: 205 }, (_, index) => volume(index + 1));
    const sizes: number[] = [];
    const client = {
      call: async (operation: string, params: { page: number; page_size: number }) => {
        assert.equal(operation, 'nas.list');
        sizes.push(params.page_size);
        const start = (params.page - 1) * params.page_size;
        return { count: volumes.length, results: volumes.slice(start, start + params.page_size) };
      },
    } as unknown as ComputeClient;
    const listing = await VOLUME_STATE.list(client, new AbortController().signal);
    assert.equal(listing.items.length, 205);
    assert.equal(listing.complete, true);
    assert.equal(sizes.length, 3);
    assert.ok(sizes.every((size) => size <= 100), 'the platform serves at most 100 a page');
  });

  it('is at rest unless a volume is Creating, Expanding or Deleting', () => {
    assert.equal(VOLUME_STATE.atRest([volume(1), volume(2, 'Exception'), volume(3, 'Deleted')]), true);
    for (const moving of ['Creating', 'Expanding', 'Deleting'] as const) assert.equal(VOLUME_STATE.atRest([volume(1), volume(2, moving)]), false, moving);
  });

  it('a status or usage change is news; the same volume is not', () => {
    assert.equal(VOLUME_STATE.equal(volume(1), volume(1)), true);
    assert.equal(VOLUME_STATE.equal(volume(1, 'Creating'), volume(1)), false);
    assert.equal(VOLUME_STATE.equal(volume(1, 'Active', 0), volume(1, 'Active', 5)), false);
  });
});
