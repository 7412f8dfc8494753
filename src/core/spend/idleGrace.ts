// The warning before every idle pause (docs/money.md, "What counts as active"): a task idle past its
// minutes is warned first (Keep Running), and is due to pause only once it stayed idle a grace period
// after that warning. One implementation for every idle pause (kernel tasks, deployments); the areas say
// what is idle, this says when to warn and when to pause. Plain Node: the clock is passed in.

/** The warning comes this long before the pause. */
export const IDLE_GRACE_MS = 2 * 60_000;

export interface IdleCandidate {
  profileId: string;
  taskId: number;
  taskName: string;
  /** When its idle time began: a later value (used again, Keep Running) is a new idle spell, warned anew. */
  idleSince: number;
}

export interface IdleGraceStep<T extends IdleCandidate> {
  /** Idle past its minutes and not yet warned in this idle spell: warn now. */
  warn: T[];
  /** Warned at least the grace period ago, idle all along: pause now (the activity rule still decides). */
  pause: T[];
}

const keyOf = (candidate: Pick<IdleCandidate, 'profileId' | 'taskId'>): string => `${candidate.profileId}\n${candidate.taskId}`;

export class IdleGrace {
  private readonly warned = new Map<string, { at: number; idleSince: number }>();

  /**
   * `idle`: the tasks idle past their minutes at `now` (every other task's warning is forgotten, so one
   * that was used meanwhile is warned again before a later pause).
   */
  step<T extends IdleCandidate>(idle: readonly T[], now: number, graceMs = IDLE_GRACE_MS): IdleGraceStep<T> {
    const result: IdleGraceStep<T> = { warn: [], pause: [] };
    const seen = new Set<string>();
    for (const candidate of idle) {
      const key = keyOf(candidate);
      if (seen.has(key)) continue;
      seen.add(key);
      const warned = this.warned.get(key);
      if (warned === undefined || warned.idleSince !== candidate.idleSince) {
        this.warned.set(key, { at: now, idleSince: candidate.idleSince });
        result.warn.push(candidate);
      } else if (now - warned.at >= graceMs) {
        this.warned.delete(key);
        result.pause.push(candidate);
      }
    }
    for (const key of [...this.warned.keys()]) if (!seen.has(key)) this.warned.delete(key);
    return result;
  }

  /** Keep Running, a pause, a task used again: its warning is over. */
  forget(profileId: string, taskId: number): void {
    this.warned.delete(keyOf({ profileId, taskId }));
  }
}
