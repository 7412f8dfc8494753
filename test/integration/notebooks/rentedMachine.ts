// A sandbox machine rented (one hour pack) until Serving, and Connect… answered as a user would, for the
// machine kernel suites.
import * as assert from 'node:assert/strict';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS } from '../../helpers/eventually';
import { connectAsUser } from '../machines/connectAsUser';
import { metalControl } from '../machines/metalControl';

export async function rentAndConnect(api: ExtensionApi, device: number): Promise<void> {
  await metalControl('product', { device_id: device });
  const service = new MachineService(api.surface.createComputeClient({}));
  const [product] = (await service.singles('Hour')).filter((item) => item.device_id === device);
  assert.ok(product);
  await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
  await service.waitForServing(device, { pollMs: 50, timeoutMs: PATIENCE_MS });
  await api.machines.refresh();
  await connectAsUser(api, device);
}
