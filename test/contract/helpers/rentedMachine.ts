// A sandbox with one machine rented by the hour and Serving, for the machine contract tests that start
// from a rented machine (the renting itself is tested in machines-connect.test.ts).
import assert from 'node:assert/strict';
import { createComputeClient } from '../../../src/core/compute/client';
import { MachineService } from '../../../src/core/machines';
import { startSandbox } from '../../sandbox/server';
import type { Sandbox } from '../../sandbox/types';

export async function sandboxWithRentedMachine(deviceId: number): Promise<{ sandbox: Sandbox; service: MachineService }> {
  const sandbox = await startSandbox({ metal: { waitingMs: 50 } });
  const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  const service = new MachineService(client);
  const [product] = (await service.singles('Hour')).filter((item) => item.device_id === deviceId);
  assert.ok(product, `device ${deviceId} is in the sandbox's catalogue`);
  await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
  await service.waitForServing(deviceId, { pollMs: 20 });
  return { sandbox, service };
}
