// Waiting for a rented machine (core/machines/machineService.ts) stops as soon as it is cancelled, also when
// the cancel comes while a status read is on its way: the wait after it must not sleep its whole poll first
// (the shared abortable wait rejects at once on a signal already aborted).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { AbortedError } from '../../../src/core/errors';
import { MachineService } from '../../../src/core/machines';
import { PATIENCE_MS } from '../../helpers/eventually';

describe('waiting for a machine to be Serving', () => {
  it('is cancelled at once when the cancel came during a status read (an hour-long poll is not slept first)', { timeout: PATIENCE_MS }, async () => {
    const controller = new AbortController();
    let reads = 0;
    const client = {
      call: async () => {
        reads++;
        controller.abort();
        return { order_detail_status: 'Waiting', ssh_port: null };
      },
    } as unknown as ComputeClient;
    await assert.rejects(new MachineService(client).waitForServing(9001, { pollMs: 3_600_000, signal: controller.signal }), (error: unknown) => error instanceof AbortedError && /Waiting for the machine was cancelled/.test(error.message));
    assert.equal(reads, 1);
  });
});
