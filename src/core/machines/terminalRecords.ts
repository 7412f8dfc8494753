// Which machine terminals were open in a window, kept so that they come back after the editor restarts
// or reloads (docs/machines.md "Connecting from the editor"). No secrets: the profile id and the device id
// (the key and the pinned host key stay in SecretStorage). What is read back is untrusted (damaged,
// hand-edited, another version): only valid entries are kept, at most MAX_TERMINAL_ENTRIES.

export interface MachineTerminalEntry {
  profileId: string;
  deviceId: number;
}

/** More open machine terminals than this are not brought back (each is one SSH connection). */
export const MAX_TERMINAL_ENTRIES = 20;

function isEntry(value: unknown): value is MachineTerminalEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { profileId, deviceId } = value as Record<string, unknown>;
  return typeof profileId === 'string' && profileId.length > 0 && profileId.length <= 200 && typeof deviceId === 'number' && Number.isSafeInteger(deviceId) && deviceId > 0;
}

/** The valid entries of a stored value (one per open terminal: a machine may have two), bounded. */
export function readTerminalEntries(value: unknown): MachineTerminalEntry[] {
  if (!Array.isArray(value)) return [];
  const kept: MachineTerminalEntry[] = [];
  for (const item of value.slice(0, MAX_TERMINAL_ENTRIES * 4)) {
    if (!isEntry(item)) continue;
    kept.push({ profileId: item.profileId, deviceId: item.deviceId });
    if (kept.length === MAX_TERMINAL_ENTRIES) break;
  }
  return kept;
}

/** The list with one more terminal of `entry` (the oldest dropped beyond the bound). */
export function withTerminal(entries: readonly MachineTerminalEntry[], entry: MachineTerminalEntry): MachineTerminalEntry[] {
  return [...entries, { profileId: entry.profileId, deviceId: entry.deviceId }].slice(-MAX_TERMINAL_ENTRIES);
}

/** The list with one terminal of `entry` fewer (the others of the same machine stay). */
export function withoutTerminal(entries: readonly MachineTerminalEntry[], entry: MachineTerminalEntry): MachineTerminalEntry[] {
  const index = entries.findIndex((candidate) => candidate.profileId === entry.profileId && candidate.deviceId === entry.deviceId);
  return index < 0 ? [...entries] : [...entries.slice(0, index), ...entries.slice(index + 1)];
}

/** Why a stored terminal is not opened again (the editor words each reason). */
export type TerminalRestoreSkip = 'ended' | 'noKey';

/**
 * Splits a profile's stored terminals into those to open again and those that cannot be: the machine is
 * no longer Serving for this profile ('ended'), or no key and pinned host key are stored for it ('noKey').
 */
export function planTerminalRestore(
  entries: readonly MachineTerminalEntry[],
  profileId: string,
  serving: ReadonlySet<number>,
  hasKey: ReadonlySet<number>,
): { open: number[]; skipped: { deviceId: number; reason: TerminalRestoreSkip }[] } {
  const open: number[] = [];
  const skipped: { deviceId: number; reason: TerminalRestoreSkip }[] = [];
  for (const entry of entries) {
    if (entry.profileId !== profileId) continue;
    if (!serving.has(entry.deviceId)) skipped.push({ deviceId: entry.deviceId, reason: 'ended' });
    else if (!hasKey.has(entry.deviceId)) skipped.push({ deviceId: entry.deviceId, reason: 'noKey' });
    else open.push(entry.deviceId);
  }
  return { open, skipped };
}
