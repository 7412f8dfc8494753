// How long a deployment took from its create until its model answered (docs/deployments.md): recorded where
// every deploy creates its task (createDeployment) and told once where every follow finds it ready
// (rememberReady) — the wizard, the API's deploy/waitReady and any other caller get the same "started in …"
// note (the preheat offer) without timing it themselves.

import type { StartTookPort } from '../../core/preheat/preheatFollow';

interface Start {
  what: string;
  image: string;
  region: string;
  at: number;
}

/** At most this many starts are waited on at once (a deployment never followed is dropped first). */
const MAX_STARTS = 100;

export class DeployStarts {
  private readonly starts = new Map<number, Start>();

  constructor(
    private readonly startTook: StartTookPort,
    private readonly now: () => number = Date.now,
  ) {}

  /** The task was created now. */
  began(taskId: number, start: Omit<Start, 'at'>): void {
    this.starts.delete(taskId);
    this.starts.set(taskId, { ...start, at: this.now() });
    if (this.starts.size > MAX_STARTS) this.starts.delete(this.starts.keys().next().value as number);
  }

  /** The task's model answers: the note, once per create. */
  ready(taskId: number): void {
    const start = this.starts.get(taskId);
    if (!start) return;
    this.starts.delete(taskId);
    this.startTook({ what: start.what, image: start.image, region: start.region, ms: this.now() - start.at });
  }
}
