// Which notebook ran on which machine's Jupyter server and kernel, kept between editor sessions so a reopened
// notebook attaches again while the server still runs (docs/notebooks.md, "A kernel on a machine"). No
// secrets: the notebook's URI, the profile, the machine, the server's port and pid, the kernel id (the token
// stays in SecretStorage). Read back as untrusted: only valid records, one per notebook, newest first, bounded.

import { MAX_KERNEL_RECORDS } from './kernelRecords';

export interface MachineKernelRecord {
  notebook: string;
  profileId: string;
  deviceId: number;
  remotePort: number;
  pid: number;
  kernelId: string;
  /** When it was last used (ms since the epoch). */
  at: number;
}

const KERNEL_ID = /^[A-Za-z0-9-]{1,64}$/;
const isCount = (value: unknown, max: number): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= max;

export function isMachineKernelRecord(value: unknown): value is MachineKernelRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { notebook, profileId, deviceId, remotePort, pid, kernelId, at } = value as Record<string, unknown>;
  return (
    typeof notebook === 'string' &&
    notebook.length > 0 &&
    notebook.length <= 4_096 &&
    typeof profileId === 'string' &&
    profileId.length > 0 &&
    profileId.length <= 200 &&
    isCount(deviceId, Number.MAX_SAFE_INTEGER) &&
    isCount(remotePort, 65_535) &&
    isCount(pid, 4_294_967_295) &&
    typeof kernelId === 'string' &&
    KERNEL_ID.test(kernelId) &&
    typeof at === 'number' &&
    Number.isFinite(at)
  );
}

/** The valid records of a stored list, one per notebook (the newest), newest first, bounded. */
export function readMachineKernelRecords(value: readonly unknown[]): MachineKernelRecord[] {
  const valid = value.slice(0, MAX_KERNEL_RECORDS * 4).filter(isMachineKernelRecord);
  valid.sort((a, b) => b.at - a.at);
  const seen = new Set<string>();
  const kept: MachineKernelRecord[] = [];
  for (const record of valid) {
    if (seen.has(record.notebook)) continue;
    seen.add(record.notebook);
    const { notebook, profileId, deviceId, remotePort, pid, kernelId, at } = record;
    kept.push({ notebook, profileId, deviceId, remotePort, pid, kernelId, at });
    if (kept.length === MAX_KERNEL_RECORDS) break;
  }
  return kept;
}

/** The list with `record` first (replacing the notebook's older one). */
export function rememberMachineKernel(records: readonly MachineKernelRecord[], record: MachineKernelRecord): MachineKernelRecord[] {
  return [record, ...records.filter((other) => other.notebook !== record.notebook)].slice(0, MAX_KERNEL_RECORDS);
}

/** The list without the notebook's record. */
export function forgetMachineKernel(records: readonly MachineKernelRecord[], notebook: string): MachineKernelRecord[] {
  return records.filter((other) => other.notebook !== notebook);
}
