// The one way to read and write what the extension keeps in VS Code's globalState (a sibling of config.ts,
// which is the one way to read settings). Each key is an entry of a table: its stored name (never renamed:
// users' data lives under it), its default and a validator. What is read back is never trusted: it can be
// damaged, hand-edited or written by another version, so a value the validator refuses falls back to the
// default (logged once per key), and a collection keeps only its valid items. A lint rule lets only this
// file touch `globalState` (eslint.config.mjs).

import { readTimers, type PauseTimer } from '../core/spend/pauseTimers';
import { StateKeys } from '../core/stateKeys';
import { isActivityEntry, type ActivityEntry, type HistoryEntry } from '../core/requests/records';
import { SECRET_KINDS, type SecretKind } from '../core/secretKinds';
import { readKernelRecords, type KernelRecord } from '../core/notebooks/kernelRecords';
import { readMachineKernelRecords, type MachineKernelRecord } from '../core/notebooks/machineKernelRecords';

/** Turns a stored value into a trusted one; `undefined` refuses it. `problems` collects what was dropped. */
export type Validator<T> = (value: unknown, problems: string[]) => T | undefined;

export interface PersistedKey<T> {
  /** The globalState key (or, for a per-profile entry, the prefix of `<prefix>/<profile id>`). */
  readonly key: string;
  /** A fresh default each time: callers may change what they read. */
  readonly fallback: () => T;
  readonly validate: Validator<T>;
}

function entry<T>(key: string, fallback: () => T, validate: Validator<T>): PersistedKey<T> {
  return { key, fallback, validate };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString: Validator<string> = (value) => (typeof value === 'string' ? value : undefined);
const isBoolean: Validator<boolean> = (value) => (typeof value === 'boolean' ? value : undefined);

const positiveNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** A record of records of numbers (`{ [profileId]: { [name]: n } }`): invalid leaves are dropped. */
function numbersByProfile<K extends string>(value: unknown, problems: string[]): Record<string, Partial<Record<K, number>>> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, Partial<Record<K, number>>> = {};
  for (const [profileId, inner] of Object.entries(value)) {
    if (!isRecord(inner)) {
      problems.push(`the entry of profile ${JSON.stringify(profileId.slice(0, 40))} is not an object`);
      continue;
    }
    const kept: Partial<Record<K, number>> = {};
    for (const [name, number] of Object.entries(inner)) {
      if (positiveNumber(number)) kept[name as K] = number;
      else problems.push(`a value under ${JSON.stringify(name.slice(0, 40))} is not a positive number`);
    }
    out[profileId] = kept;
  }
  return out;
}

const secretSetAt: Validator<Record<string, Partial<Record<SecretKind, number>>>> = (value, problems) => {
  const all = numbersByProfile<SecretKind>(value, problems);
  if (!all) return undefined;
  for (const record of Object.values(all)) {
    for (const kind of Object.keys(record)) {
      if (!(SECRET_KINDS as readonly string[]).includes(kind)) {
        delete record[kind as SecretKind];
        problems.push(`unknown secret kind ${JSON.stringify(kind.slice(0, 40))}`);
      }
    }
  }
  return all;
};

const pauseTimers: Validator<PauseTimer[]> = (value, problems) => {
  if (!Array.isArray(value)) return undefined;
  const timers = readTimers(value);
  if (timers.length < value.length) problems.push(`${value.length - timers.length} pause timer(s) were not valid`);
  return timers;
};

const stringList: Validator<string[]> = (value, problems) => {
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter((item): item is string => typeof item === 'string');
  if (strings.length < value.length) problems.push(`${value.length - strings.length} item(s) were not strings`);
  return strings;
};

function isHistoryEntry(value: unknown): value is HistoryEntry {
  if (!isRecord(value)) return false;
  return typeof value.id === 'string' && typeof value.at === 'number' && isRecord(value.input);
}

const requestHistory: Validator<Record<string, HistoryEntry[]>> = (value, problems) => {
  if (!isRecord(value)) return undefined;
  const out: Record<string, HistoryEntry[]> = {};
  for (const [profileId, entries] of Object.entries(value)) {
    if (!Array.isArray(entries)) {
      problems.push(`the history of profile ${JSON.stringify(profileId.slice(0, 40))} is not a list`);
      continue;
    }
    const kept = entries.filter(isHistoryEntry);
    if (kept.length < entries.length) problems.push(`${entries.length - kept.length} history entr(ies) were not valid`);
    out[profileId] = kept;
  }
  return out;
};

const requestActivity: Validator<Record<string, ActivityEntry[]>> = (value, problems) => {
  if (!isRecord(value)) return undefined;
  const out: Record<string, ActivityEntry[]> = {};
  for (const [profileId, entries] of Object.entries(value)) {
    if (!Array.isArray(entries)) {
      problems.push(`the activity of profile ${JSON.stringify(profileId.slice(0, 40))} is not a list`);
      continue;
    }
    const kept = entries.filter(isActivityEntry);
    if (kept.length < entries.length) problems.push(`${entries.length - kept.length} activity entr(ies) were not valid`);
    out[profileId] = kept;
  }
  return out;
};

const notebookKernels: Validator<KernelRecord[]> = (value, problems) => {
  if (!Array.isArray(value)) return undefined;
  const records = readKernelRecords(value);
  if (records.length < value.length) problems.push(`${value.length - records.length} notebook kernel record(s) were not valid or repeated`);
  return records;
};

const machineKernels: Validator<MachineKernelRecord[]> = (value, problems) => {
  if (!Array.isArray(value)) return undefined;
  const records = readMachineKernelRecords(value);
  if (records.length < value.length) problems.push(`${value.length - records.length} machine kernel record(s) were not valid or repeated`);
  return records;
};

/** The request history's key (an older name than the others, kept so stored histories survive). */
export const HISTORY_STATE_KEY = 'requestHistory.v1';
/** The key of what the extension sent by itself, beside the history. */
export const ACTIVITY_STATE_KEY = 'requestActivity.v1';

/** Every globalState entry the extension keeps. Renaming a key loses what users stored under it. */
export const PERSISTED = {
  /** When each secret of each profile was set (timestamps only, never a value): the key-rotation reminder. */
  secretSetAt: entry<Record<string, Partial<Record<SecretKind, number>>>>(StateKeys.secretSetAt, () => ({}), secretSetAt),
  /** The chat model picked last, offered to new conversations when no default model is configured. */
  chatLastModel: entry<string>(StateKeys.chatLastModel, () => '', isString),
  /** Pause timers of every profile (no secrets: profile id, task id and name, times). */
  pauseTimers: entry<PauseTimer[]>(StateKeys.pauseTimers, () => [], pauseTimers),
  /** The walkthrough was opened once (or skipped for someone who had a profile). */
  walkthroughShown: entry<boolean>(StateKeys.walkthroughShown, () => false, isBoolean),
  /** Idle-pause minutes per deployment: `{ [profileId]: { [taskId]: minutes } }` (no secrets). */
  deploymentIdlePause: entry<Record<string, Partial<Record<string, number>>>>(StateKeys.deploymentIdlePause, () => ({}), numbersByProfile),
  /** The redacted request history per profile, newest first (requests/requestHistory.ts). */
  requestHistory: entry<Record<string, HistoryEntry[]>>(HISTORY_STATE_KEY, () => ({}), requestHistory),
  /** What the extension sent by itself, per profile, newest first (requests/requestActivity.ts; no headers or bodies). */
  requestActivity: entry<Record<string, ActivityEntry[]>>(ACTIVITY_STATE_KEY, () => ({}), requestActivity),
  /** Which notebook ran on which task and kernel (no secrets), to attach again after a restart. */
  notebookKernels: entry<KernelRecord[]>(StateKeys.notebookKernels, () => [], notebookKernels),
  /** Which notebook ran on which machine's Jupyter server and kernel (no secrets), to attach again after a restart. */
  machineKernels: entry<MachineKernelRecord[]>(StateKeys.machineKernels, () => [], machineKernels),
} as const;

/** Entries kept once per profile, under `<key>/<profile id>`. */
export const PERSISTED_PER_PROFILE = {
  /** The budget warnings already shown this period (so a restart does not repeat one). */
  budgetAnnounced: entry<string[]>(StateKeys.budgetAnnounced, () => [], stringList),
} as const;

export type PersistedName = keyof typeof PERSISTED;
export type PerProfileName = keyof typeof PERSISTED_PER_PROFILE;
type ValueOf<E> = E extends PersistedKey<infer T> ? T : never;
export type PersistedValue<N extends PersistedName> = ValueOf<(typeof PERSISTED)[N]>;
export type PerProfileValue<N extends PerProfileName> = ValueOf<(typeof PERSISTED_PER_PROFILE)[N]>;

/** The part of a vscode.Memento the store uses (tests hand in an in-memory one). */
export interface StateMemento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** The store over the extension's globalState (the only place that names it). */
export function persistedStateOf(context: { readonly globalState: StateMemento }, log: { warn(message: string): void }): PersistedState {
  return new PersistedState(context.globalState, log);
}

interface PendingWrite {
  value: unknown;
  /** Sent to the memento: a newer value of the key waits for its own turn. */
  started: boolean;
  done: Promise<void>;
}

/** How many times a write that did not stick is made again before it is reported. */
const WRITE_ATTEMPTS = 3;

export class PersistedState {
  /** Keys whose damage was already logged this session (a damaged value is read often). */
  private readonly reported = new Set<string>();
  /** Writes go one at a time (see `write`). */
  private writes: Promise<void> = Promise.resolve();
  /** The latest value written per key until its write is done: what reads see meanwhile. */
  private readonly pending = new Map<string, PendingWrite>();

  constructor(
    private readonly memento: StateMemento,
    private readonly log: { warn(message: string): void },
  ) {}

  get<N extends PersistedName>(name: N): PersistedValue<N> {
    return this.read(PERSISTED[name] as PersistedKey<PersistedValue<N>>, PERSISTED[name].key);
  }

  update<N extends PersistedName>(name: N, value: PersistedValue<N>): Promise<void> {
    return this.write(PERSISTED[name].key, value);
  }

  getFor<N extends PerProfileName>(name: N, profileId: string): PerProfileValue<N> {
    const definition = PERSISTED_PER_PROFILE[name] as PersistedKey<PerProfileValue<N>>;
    return this.read(definition, `${definition.key}/${profileId}`);
  }

  updateFor<N extends PerProfileName>(name: N, profileId: string, value: PerProfileValue<N>): Promise<void> {
    return this.write(`${PERSISTED_PER_PROFILE[name].key}/${profileId}`, value);
  }

  /**
   * The extension host keeps globalState as one object that each write sends whole, and the workbench's
   * echo of an earlier send replaces that object: a write made while an echo is on its way is wiped
   * before it is sent (a pause timer vanished this way while request activity was being recorded). So
   * writes go one at a time — each starts after the previous one's echo came back —, each is read back
   * and made again if another window's write replaced it meanwhile, and reads see a queued value at once
   * (a read-modify-write right after a write must not start from the older value). Queued writes of one
   * key collapse into the last value: a burst of request records is one write, not a growing queue.
   */
  private write(key: string, value: unknown): Promise<void> {
    const queued = this.pending.get(key);
    if (queued && !queued.started) {
      queued.value = value;
      return queued.done;
    }
    const slot: PendingWrite = { value, started: false, done: Promise.resolve() };
    slot.done = this.writes.then(async () => {
      slot.started = true;
      try {
        await this.persist(key, slot.value);
      } finally {
        if (this.pending.get(key) === slot) this.pending.delete(key);
      }
    });
    this.pending.set(key, slot);
    this.writes = slot.done.catch(() => undefined);
    return slot.done;
  }

  private async persist(key: string, value: unknown): Promise<void> {
    const wanted = JSON.stringify(value);
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      await this.memento.update(key, value);
      if (JSON.stringify(this.memento.get(key)) === wanted) return;
    }
    this.log.warn(`Stored state ${key}: the write did not stick after ${WRITE_ATTEMPTS} attempts (another window keeps changing it).`);
  }

  private read<T>(definition: PersistedKey<T>, key: string): T {
    const queued = this.pending.get(key);
    const stored = queued ? queued.value : this.memento.get(key);
    if (stored === undefined) return definition.fallback();
    const problems: string[] = [];
    const value = definition.validate(stored, problems);
    if (value === undefined) problems.unshift(`the stored value has the wrong shape (${Array.isArray(stored) ? 'array' : typeof stored}); using the default`);
    if (problems.length > 0 && !this.reported.has(key)) {
      this.reported.add(key);
      this.log.warn(`Stored state ${key}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (+${problems.length - 3} more)` : ''}`);
    }
    return value ?? definition.fallback();
  }
}
