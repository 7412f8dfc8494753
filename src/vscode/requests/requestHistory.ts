// The redacted request history: the last requests sent by hand (Send Signed Request), per profile, in
// the stored state (persistedState.ts). An entry holds what is needed to send the request again (re-signed with a fresh
// timestamp) and to describe it: never a token, a signature, a secret body field or a task's env values. A request whose
// secrets had to be masked is kept for reading but cannot be replayed.

import { secretFieldNames } from '../../core/compute/operations';
import { maskSecret } from '../../core/log';
import { maskTaskEnv } from '../../core/tasks/envMask';
import type { PersistedState } from '../persistedState';
import type { HistoryEntry, RequestInput } from '../../core/requests/records';

export type { HistoryEntry } from '../../core/requests/records';

export { HISTORY_STATE_KEY } from '../persistedState';
export const DEFAULT_HISTORY_SIZE = 20;


type Stored = Record<string, HistoryEntry[]>;

/** Anything a value of the stored input may hold that is a known secret: masked, never stored. */
export type MaskText = (text: string) => string;

export class RequestHistory {
  constructor(
    private readonly state: Pick<PersistedState, 'get' | 'update'>,
    private readonly size: () => number,
  ) {}

  list(profileId: string): HistoryEntry[] {
    return [...(this.stored()[profileId] ?? [])];
  }

  find(id: string): HistoryEntry | undefined {
    for (const entries of Object.values(this.stored())) {
      const found = entries.find((entry) => entry.id === id);
      if (found) return found;
    }
    return undefined;
  }

  async record(entry: Omit<HistoryEntry, 'id' | 'input' | 'replayable'>, input: RequestInput, mask: MaskText): Promise<HistoryEntry | undefined> {
    const limit = this.size();
    if (limit <= 0) return undefined;
    const { input: safeInput, replayable } = redactInput(input, mask);
    const full: HistoryEntry = {
      ...entry,
      pathWithQuery: mask(entry.pathWithQuery),
      outcome: mask(entry.outcome).slice(0, 200),
      id: `${entry.at.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      input: safeInput,
      replayable,
    };
    const stored = this.stored();
    stored[entry.profileId] = [full, ...(stored[entry.profileId] ?? [])].slice(0, limit);
    await this.state.update('requestHistory', stored);
    return full;
  }

  async clear(profileId: string): Promise<void> {
    const stored = this.stored();
    delete stored[profileId];
    await this.state.update('requestHistory', stored);
  }

  /** A copy (validated on read by the store): changing it changes nothing until it is written back. */
  private stored(): Stored {
    return { ...this.state.get('requestHistory') };
  }
}

/**
 * The input with every secret masked: the catalog's secret fields, and any known secret (the Redactor's)
 * inside a value. Masking changes the request, so a masked input is not replayable.
 */
export function redactInput(input: RequestInput, mask: MaskText): { input: RequestInput; replayable: boolean } {
  if (input.kind === 'operation') {
    const secretNames = new Set(secretFieldNames(input.operation));
    const envMasked = maskTaskEnv(input.params);
    let replayable = JSON.stringify(envMasked) === JSON.stringify(input.params);
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(envMasked)) {
      if (secretNames.has(name) && typeof value === 'string' && value !== '') {
        params[name] = maskSecret(value);
        replayable = false;
        continue;
      }
      const masked = maskDeep(value, mask);
      if (masked.changed) replayable = false;
      params[name] = masked.value;
    }
    return { input: { ...input, params }, replayable };
  }
  const envMasked = maskEnv(input.request.body);
  const body = maskDeep(envMasked, mask);
  if (JSON.stringify(envMasked) !== JSON.stringify(input.request.body)) body.changed = true;
  const query = input.request.query?.map(([name, value]): [string, string] => [name, mask(value)]);
  const queryChanged = query?.some(([, value], index) => value !== input.request.query?.[index]?.[1]) ?? false;
  return {
    input: { kind: 'raw', request: { ...input.request, ...(body.value !== undefined ? { body: body.value } : {}), ...(query ? { query } : {}) } },
    replayable: !body.changed && !queryChanged,
  };
}

/** A task's env values can be secrets (HF_TOKEN=…): never stored, as never shown. */
function maskEnv(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? maskTaskEnv(value) : value;
}

function maskDeep(value: unknown, mask: MaskText): { value: unknown; changed: boolean } {
  if (value === undefined) return { value, changed: false };
  const text = JSON.stringify(value);
  if (text === undefined) return { value, changed: false };
  const masked = mask(text);
  if (masked === text) return { value, changed: false };
  try {
    return { value: JSON.parse(masked) as unknown, changed: true };
  } catch {
    return { value: masked, changed: true };
  }
}
