// A rented machine of the benchmarks' sandbox, ready for OpenSSH beside the extension: rented by the hour,
// Serving, connected once as Connect… does the first time (a generated key installed, the host key
// pinned), and that key and host key written to files in `work` for `ssh` / `sftp` (machines.ts,
// machineKernel.ts compare the extension's SSH with OpenSSH's on the same machine).

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComputeClient } from '../../src/core/compute/api';
import { connectRented, MachineService, type MachineLogin } from '../../src/core/machines';
import { MemoryMachineKeyStore } from '../contract/helpers/memoryMachineKeyStore';

export interface BenchMachine {
  service: MachineService;
  store: MemoryMachineKeyStore;
  /** The platform's login (with its password: the extension's later connects go key-only from the store). */
  login: MachineLogin;
  /** OpenSSH options for the same machine and key, key-only, host key checked against the pinned one. */
  sshArgs: string[];
}

export async function rentBenchMachine(client: ComputeClient, deviceId: number, work: string): Promise<BenchMachine> {
  const service = new MachineService(client);
  const store = new MemoryMachineKeyStore();
  const [product] = (await service.singles('Hour')).filter((item) => item.device_id === deviceId);
  if (!product) throw new Error(`the sandbox offers no machine ${deviceId}`);
  await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
  await service.waitForServing(deviceId, { pollMs: 20 });
  // The first connect installs a generated key and pins the host key; every later one is key-only.
  (await connectRented(service, deviceId, store, async () => ({ kind: 'generate' }))).connection.close();
  const login = await service.login(deviceId);
  const key = store.keys.get(deviceId);
  const hostKey = store.hostKeys.get(deviceId);
  if (!key || !hostKey) throw new Error('no key or host key after the first connect');
  const keyFile = join(work, 'id_ed25519');
  await writeFile(keyFile, key.privateKey.endsWith('\n') ? key.privateKey : `${key.privateKey}\n`, { mode: 0o600 });
  const knownHosts = join(work, 'known_hosts');
  await writeFile(knownHosts, `[${login.host}]:${login.port} ${hostKey.key}\n`);
  const sshArgs = ['-F', '/dev/null', '-i', keyFile, '-p', String(login.port), '-l', login.username, '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=yes', '-o', 'LogLevel=ERROR'];
  return { service, store, login, sshArgs };
}
