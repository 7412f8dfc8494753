// The request records the editor keeps between sessions (Request History and the activity beside it):
// plain shapes, no editor API, so the stored-state table (src/vscode/persistedState.ts) can validate them
// without importing the requests area that writes them.

import type { HttpMethod, OperationId, RawRequest } from '../compute/api';

/** What Sign Request and Send Signed Request act on: a catalog operation with its parameters, or a hand-written request. */
export type RequestInput =
  | { kind: 'operation'; operation: OperationId; params: Record<string, unknown>; encrypt?: boolean }
  | { kind: 'raw'; request: RawRequest };

export interface HistoryEntry {
  id: string;
  /** Milliseconds since 1970. */
  at: number;
  profileId: string;
  title: string;
  /** The request to send again; secret fields masked when `replayable` is false. */
  input: RequestInput;
  replayable: boolean;
  method: HttpMethod;
  pathWithQuery: string;
  status?: number;
  /** "ok", an envelope code, or the kind of failure; short and masked. */
  outcome: string;
  elapsedMs: number;
}

export type ActivitySource = 'command' | 'tool' | 'budget' | 'timer' | 'background';

export interface ActivityEntry {
  /** Milliseconds since 1970. */
  at: number;
  profileId: string;
  source: ActivitySource;
  /** The command id or the tool name, for 'command' and 'tool'. */
  sourceName?: string;
  operation: string;
  method: HttpMethod;
  pathWithQuery: string;
  status?: number;
  /** "ok", the envelope code, "HTTP 502", or why no answer came; short and masked. */
  outcome: string;
  elapsedMs: number;
  /** 0 for the first attempt, then one per retry. */
  attempt: number;
}

export function isActivityEntry(value: unknown): value is ActivityEntry {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Partial<ActivityEntry>;
  return (
    typeof entry.at === 'number' &&
    typeof entry.profileId === 'string' &&
    typeof entry.source === 'string' &&
    typeof entry.operation === 'string' &&
    (entry.method === 'GET' || entry.method === 'POST') &&
    typeof entry.pathWithQuery === 'string' &&
    typeof entry.outcome === 'string' &&
    typeof entry.elapsedMs === 'number'
  );
}
