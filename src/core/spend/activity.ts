// The one activity rule for pausing (docs/spend.md, "What counts as active"): every surface that pauses a
// task by itself — idle pause, pause timers, budget auto-pause — asks the same question, "what is the user
// doing on it now?", of the same registry. Each area reports its own kind of activity (a kernel running a
// cell, a terminal or SSH session open, a Run on GPU running, a deployed model answering); a timer or an
// idle pause holds off and warns while anything is active, a budget's auto-pause still pauses and names
// what it interrupted. Plain Node: the rule is tested without the editor.

export type ActivityKind = 'kernel-busy' | 'terminal' | 'ssh' | 'run-on-gpu' | 'model-answering';

/**
 * What the activity is on: a task (which idle pause, timers and a budget pause), or a rented machine or a
 * batch job (Run on GPU), which no rule pauses: a budget's auto-pause names them as still running.
 */
export type ActivityOn = { taskId: number } | { deviceId: number } | { jobId: number };

export type Activity = ActivityOn & {
  kind: ActivityKind;
  profileId: string;
  /** What is active, for messages (a notebook's name, a terminal's title…); already shortened by the reporter. */
  label: string;
};

function onTask(activity: Activity, taskId: number): boolean {
  return 'taskId' in activity && activity.taskId === taskId;
}

/** An area's live activities (read at the moment a pause is decided, never cached). */
export type ActivitySource = () => readonly Activity[];

/** Who wants to pause: the user's own rules (idle, timer) yield to activity; a budget's limit does not. */
export type PauseReason = 'idle' | 'timer' | 'budget';

export type PauseDecision =
  /** Nothing is active: pause. */
  | { action: 'pause'; interrupted: readonly Activity[] }
  /** Something is active: do not pause; warn (with Keep Running first). */
  | { action: 'hold'; active: readonly Activity[] };

/** The rule itself. */
export function decidePause(reason: PauseReason, active: readonly Activity[]): PauseDecision {
  if (active.length === 0) return { action: 'pause', interrupted: [] };
  if (reason === 'budget') return { action: 'pause', interrupted: active };
  return { action: 'hold', active };
}

const MAX_ACTIVITIES = 1_000;

export class ActivityRegistry {
  private readonly sources = new Set<ActivitySource>();

  /** Adds an area's source; the returned function removes it. */
  add(source: ActivitySource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  /** What is active on the task now (a source that throws counts as reporting nothing, and is named). */
  of(profileId: string, taskId: number, onSourceError?: (error: unknown) => void): Activity[] {
    return this.matching(profileId, (activity) => onTask(activity, taskId), onSourceError);
  }

  /** What is active on the profile's machines and jobs now: what no pause of a task stops. */
  notOnTasks(profileId: string, onSourceError?: (error: unknown) => void): Activity[] {
    return this.matching(profileId, (activity) => !('taskId' in activity), onSourceError);
  }

  private matching(profileId: string, wanted: (activity: Activity) => boolean, onSourceError?: (error: unknown) => void): Activity[] {
    const found: Activity[] = [];
    for (const source of this.sources) {
      let reported: readonly Activity[];
      try {
        reported = source();
      } catch (error) {
        onSourceError?.(error);
        continue;
      }
      for (const activity of reported.slice(0, MAX_ACTIVITIES)) if (activity.profileId === profileId && wanted(activity)) found.push(activity);
    }
    return found;
  }

  /** The rule for one task. */
  decide(reason: PauseReason, profileId: string, taskId: number, onSourceError?: (error: unknown) => void): PauseDecision {
    return decidePause(reason, this.of(profileId, taskId, onSourceError));
  }
}
