// The requests the extension sent by itself, per profile, in the stored state (persistedState.ts), for Request History beside
// the ones sent by hand: what the views, commands, agent tools, budgets and pause timers sent. Each
// attempt keeps its method, path (masked), operation, status, outcome, duration and time, and where it
// came from: never a header, a body or a secret, so none of it can be replayed. Background reads
// (polling the task list, spend figures, prices) are not kept: they would push everything else out.

import type { ExchangeRecord, OperationEffect } from '../../core/compute/api';
import type { RequestOrigin } from '../../core/requests/requestOrigin';
import type { PersistedState } from '../persistedState';
import type { ActivityEntry, ActivitySource } from '../../core/requests/records';

export { isActivityEntry, type ActivityEntry, type ActivitySource } from '../../core/requests/records';

/** Entries kept per profile for each hand-sent one the history keeps (`request.historySize`). */
export const ACTIVITY_PER_HISTORY_ENTRY = 5;

/**
 * The entry for one attempt, or undefined when it is not kept: background reads, and the requests of
 * the commands that keep their own replayable entry (`selfRecorded`: Send Signed Request, Replay).
 */
export function activityEntry(
  profileId: string,
  exchange: ExchangeRecord,
  origin: RequestOrigin | undefined,
  effect: OperationEffect | undefined,
  now: number,
  mask: (text: string) => string,
  selfRecorded: ReadonlySet<string>,
): ActivityEntry | undefined {
  if (origin === undefined && effect === 'read') return undefined;
  if (origin?.kind === 'command' && selfRecorded.has(origin.command)) return undefined;
  const source: ActivitySource = origin?.kind ?? 'background';
  const sourceName = origin?.kind === 'command' ? origin.command : origin?.kind === 'tool' ? origin.tool : undefined;
  let outcome: string;
  if (exchange.failure !== undefined) outcome = exchange.failure;
  else if (exchange.envelopeCode === '0000' || exchange.envelopeCode === '0') outcome = 'ok';
  else if (exchange.envelopeCode !== undefined) outcome = exchange.envelopeCode;
  else outcome = `HTTP ${exchange.status ?? '—'}`;
  return {
    at: now,
    profileId,
    source,
    ...(sourceName !== undefined ? { sourceName: sourceName.slice(0, 100) } : {}),
    operation: exchange.operation,
    method: exchange.request.method,
    pathWithQuery: mask(exchange.request.pathWithQuery).slice(0, 500),
    ...(exchange.status !== undefined ? { status: exchange.status } : {}),
    outcome: mask(outcome).slice(0, 120),
    elapsedMs: exchange.elapsedMs,
    attempt: exchange.attempt,
  };
}

type Stored = Record<string, ActivityEntry[]>;

export class RequestActivity {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: Pick<PersistedState, 'get' | 'update'>,
    /** Entries kept per profile (0 keeps none). */
    private readonly size: () => number,
  ) {}

  list(profileId: string): ActivityEntry[] {
    return [...(this.stored()[profileId] ?? [])];
  }

  /** Adds an entry (newest first, bounded); writes one after another, so none is lost to a race. */
  record(entry: ActivityEntry): Promise<void> {
    const next = this.queue.then(async () => {
      const limit = this.size();
      if (limit <= 0) return;
      const stored = this.stored();
      stored[entry.profileId] = [entry, ...(stored[entry.profileId] ?? [])].slice(0, limit);
      await this.state.update('requestActivity', stored);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  clear(profileId: string): Promise<void> {
    const next = this.queue.then(async () => {
      const stored = this.stored();
      delete stored[profileId];
      await this.state.update('requestActivity', stored);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** What the stored state holds (malformed entries already dropped there), each profile's list cut to the limit. */
  private stored(): Stored {
    const limit = Math.max(0, this.size());
    const out: Stored = {};
    for (const [profileId, entries] of Object.entries(this.state.get('requestActivity'))) out[profileId] = entries.slice(0, limit);
    return out;
  }
}
