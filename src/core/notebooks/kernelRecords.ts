// Which notebook ran on which task and kernel, kept between editor sessions so a reopened notebook attaches to
// its still-running kernel (docs/notebooks.md, "Reconnect"). No secrets: the notebook's URI, the profile id,
// the task id and the kernel id (the token stays in SecretStorage). What is read back is untrusted (damaged,
// hand-edited, another version): only valid records are kept, at most MAX_KERNEL_RECORDS, newest first.

export interface KernelRecord {
  /** The notebook document's URI, as text. */
  notebook: string;
  profileId: string;
  taskId: number;
  /** Jupyter's kernel id (a UUID). */
  kernelId: string;
  /** When it was last used (ms since the epoch). */
  at: number;
}

export const MAX_KERNEL_RECORDS = 100;
const MAX_URI_CHARS = 4_096;
const KERNEL_ID = /^[A-Za-z0-9-]{1,64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isKernelRecord(value: unknown): value is KernelRecord {
  if (!isRecord(value)) return false;
  const { notebook, profileId, taskId, kernelId, at } = value;
  return (
    typeof notebook === 'string' &&
    notebook.length > 0 &&
    notebook.length <= MAX_URI_CHARS &&
    typeof profileId === 'string' &&
    profileId.length > 0 &&
    profileId.length <= 200 &&
    typeof taskId === 'number' &&
    Number.isSafeInteger(taskId) &&
    taskId > 0 &&
    typeof kernelId === 'string' &&
    KERNEL_ID.test(kernelId) &&
    typeof at === 'number' &&
    Number.isFinite(at)
  );
}

/** The valid records of a stored list, one per notebook (the newest), newest first, bounded. */
export function readKernelRecords(value: readonly unknown[]): KernelRecord[] {
  const seen = new Set<string>();
  const kept: KernelRecord[] = [];
  const valid = value.slice(0, MAX_KERNEL_RECORDS * 4).filter(isKernelRecord);
  valid.sort((a, b) => b.at - a.at);
  for (const record of valid) {
    if (seen.has(record.notebook)) continue;
    seen.add(record.notebook);
    kept.push({ notebook: record.notebook, profileId: record.profileId, taskId: record.taskId, kernelId: record.kernelId, at: record.at });
    if (kept.length === MAX_KERNEL_RECORDS) break;
  }
  return kept;
}

/** The list with `record` first (replacing the notebook's older one). */
export function rememberKernel(records: readonly KernelRecord[], record: KernelRecord): KernelRecord[] {
  return [record, ...records.filter((other) => other.notebook !== record.notebook)].slice(0, MAX_KERNEL_RECORDS);
}

/** The list without the notebook's record (its kernel is gone). */
export function forgetKernel(records: readonly KernelRecord[], notebook: string): KernelRecord[] {
  return records.filter((other) => other.notebook !== notebook);
}

/** The notebook's record on this profile, if any. */
export function kernelRecordOf(records: readonly KernelRecord[], notebook: string, profileId: string): KernelRecord | undefined {
  return records.find((record) => record.notebook === notebook && record.profileId === profileId);
}
