// A machine key store in memory for the machine contract tests (the editor keeps it in SecretStorage:
// src/vscode/machines/connect/machineKeyStore.ts).
import type { MachineKey, MachineKeyStore, PinnedHostKey } from '../../../src/core/machines';

export class MemoryMachineKeyStore implements MachineKeyStore {
  readonly hostKeys = new Map<number, PinnedHostKey>();
  readonly keys = new Map<number, MachineKey>();
  hostKey = async (id: number) => this.hostKeys.get(id);
  pinHostKey = async (id: number, key: PinnedHostKey) => void this.hostKeys.set(id, key);
  machineKey = async (id: number) => this.keys.get(id);
  saveMachineKey = async (id: number, key: MachineKey) => void this.keys.set(id, key);
}
