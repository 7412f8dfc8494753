// A sandbox machine rented (one hour pack) and followed until Serving, the store told: the start of every
// in-host suite that needs a machine (machines, notebooks).
import * as assert from 'node:assert/strict';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS } from '../../helpers/eventually';
import { metalControl } from './metalControl';

export async function rentUntilServing(api: ExtensionApi, device: number): Promise<void> {
  await metalControl('product', { device_id: device });
  const service = new MachineService(api.surface.createComputeClient({}));
  const [product] = (await service.singles('Hour')).filter((item) => item.device_id === device);
  assert.ok(product, `the sandbox sells machine ${device}`);
  await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
  await service.waitForServing(device, { pollMs: 50, timeoutMs: PATIENCE_MS });
  await api.machines.refresh();
}
