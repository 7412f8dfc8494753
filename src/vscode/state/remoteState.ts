// The remote-state store on the editor side: one PollScheduler per watched profile (core/state),
// each holding one store per kind of remote state that something follows or reads (tasks, batch jobs, NAS
// volumes, S3 transfers, image preheats, rented machines: a kind needs no entry here). The active
// profile is always watched; another profile when `computeToolkit.watch.profiles` says so, or by
// default when it has something to watch over (a budget, a pause timer); a profile polls only while
// something of it moves (one look, then silence at rest). Cost: one list per moving kind per watched
// profile per interval (a kind at rest is listed only on a wake). Every consumer — the Tasks, Jobs and
// NAS views, notifications, burn rate, spend, budgets, pause timers, the status bar, the Spend page,
// deployment readiness — reads the stores and follows their events; none of them lists on its own.

import * as vscode from 'vscode';
import type { ComputeClient, TaskSummary } from '../../core/compute/api';
import type { StateChange, StateDefinition } from '../../core/state/definition';
import { PollScheduler, SYSTEM_CLOCK, type SchedulerClock } from '../../core/state/pollScheduler';
import { runInBackground } from '../../core/requests/requestOrigin';
import type { ChangeListener, ListenerPhase, RemoteStore } from '../../core/state/remoteStore';
import { TASK_STATE } from '../../core/tasks/taskState';
import { Config } from '../config';
import type { ExtensionServices, Profile } from '../services';
import { errorMessage } from '../../shared/errorMessage';

export type TaskStore = RemoteStore<TaskSummary, number, ComputeClient>;

/** One watched profile: its scheduler and its task store. */
export interface ProfileWatch {
  readonly profile: Profile;
  readonly scheduler: PollScheduler<ComputeClient>;
  readonly tasks: TaskStore;
}

/** A change of one kind in one profile's store, with the profile it belongs to. */
export type ProfileChangeListener<T> = (change: StateChange<T>, profile: Profile) => void | Promise<void>;

interface Entry {
  watch: ProfileWatch;
  identity: string;
  /** Each subscription's unsubscribe from this profile's store. */
  detach: Map<Subscription<unknown>, () => void>;
}

interface Subscription<T> {
  definition: StateDefinition<T, unknown, ComputeClient>;
  listener: ProfileChangeListener<T>;
  phase: ListenerPhase;
  /** Hears the failed polls of the kind too (a view shows them). */
  onError?: (error: unknown, profile: Profile) => void;
}

export class RemoteState implements vscode.Disposable {
  private readonly watches = new Map<string, Entry>();
  private readonly subscriptions: Subscription<unknown>[] = [];
  private readonly disposables: vscode.Disposable[];
  private readonly watchChanged = new vscode.EventEmitter<void>();
  /** Fires when the set of watched profiles changes. */
  readonly onDidChangeWatched = this.watchChanged.event;

  constructor(
    private readonly services: ExtensionServices,
    /** Whether a profile not named in the setting has something to watch over (a budget, a timer). */
    private readonly needsWatching: (profile: Profile) => boolean = () => false,
  ) {
    this.disposables = [
      this.watchChanged,
      services.profiles.onDidChangeActive(() => this.sync()),
      // A stored key or token changes what the platform answers: what a poll under the old ones
      // brought back must not stand in for the new (a view would show rows the new key cannot list).
      services.profiles.onDidChangeSecrets(({ profileId }) => void this.watches.get(profileId)?.watch.scheduler.restart()),
      services.config.onDidChange((event) => {
        if (Config.affects(event, 'watch') || Config.affects(event, 'profiles') || Config.affects(event, 'budgets')) this.sync();
        if (Config.affects(event, 'notifications.pollIntervalSeconds')) {
          for (const { watch } of this.watches.values()) watch.scheduler.setIntervalMs(services.config.watchIntervalMs);
        }
      }),
      vscode.window.onDidChangeWindowState((state) => {
        for (const { watch } of this.watches.values()) {
          watch.scheduler.setFocused(state.focused);
          // Back at the window after a quiet spell: one look, in case something changed elsewhere.
          if (state.focused && !watch.scheduler.active) watch.scheduler.wake();
        }
      }),
    ];
    this.sync();
  }

  /** Every watched profile. */
  get watched(): readonly ProfileWatch[] {
    return [...this.watches.values()].map((entry) => entry.watch);
  }

  /** The active profile's watch (undefined without a profile). */
  get active(): ProfileWatch | undefined {
    const id = this.services.profiles.active?.id;
    return id === undefined ? undefined : this.watches.get(id)?.watch;
  }

  of(profileId: string): ProfileWatch | undefined {
    return this.watches.get(profileId)?.watch;
  }

  /** The active profile's task store. */
  get tasks(): TaskStore | undefined {
    return this.active?.tasks;
  }

  /**
   * Follows one kind's changes in every watched profile, present and future (views render in the
   * 'view' phase, before 'follow' listeners such as notifications). Returns a disposable.
   */
  follow<T>(
    definition: StateDefinition<T, unknown, ComputeClient>,
    listener: ProfileChangeListener<T>,
    phase: ListenerPhase = 'follow',
    onError?: (error: unknown, profile: Profile) => void,
  ): vscode.Disposable {
    const subscription = { definition, listener, phase, ...(onError ? { onError } : {}) } as Subscription<unknown>;
    this.subscriptions.push(subscription);
    for (const entry of this.watches.values()) entry.detach.set(subscription, this.attach(entry.watch, subscription));
    return new vscode.Disposable(() => {
      const index = this.subscriptions.indexOf(subscription);
      if (index >= 0) this.subscriptions.splice(index, 1);
      for (const entry of this.watches.values()) {
        entry.detach.get(subscription)?.();
        entry.detach.delete(subscription);
      }
    });
  }

  /** One kind's store of a profile (default: the active one); undefined when that profile is not watched. */
  store<T, K>(definition: StateDefinition<T, K, ComputeClient>, profileId?: string): RemoteStore<T, K, ComputeClient> | undefined {
    const watch = profileId === undefined ? this.active : this.of(profileId);
    return watch?.scheduler.store(definition);
  }

  /** Follows task changes in every watched profile. */
  followTasks(listener: ProfileChangeListener<TaskSummary>, phase: ListenerPhase = 'follow'): vscode.Disposable {
    return this.follow(TASK_STATE as StateDefinition<TaskSummary, unknown, ComputeClient>, listener, phase);
  }

  /** Polls a profile (default: the active one) as soon as the platform's floor allows. */
  wake(profileId?: string): void {
    const id = profileId ?? this.services.profiles.active?.id;
    if (id !== undefined) this.watches.get(id)?.watch.scheduler.wake();
  }

  /** Polls the active profile now (a user refresh) and resolves when its stores hold the answer. */
  refresh(): Promise<void> {
    return this.active?.scheduler.refresh() ?? Promise.resolve();
  }

  /** For the in-host tests: the active profile's planned poll now (see PollScheduler.runPlannedPoll). */
  runPlannedPoll(): Promise<boolean> {
    return this.active?.scheduler.runPlannedPoll() ?? Promise.resolve(false);
  }

  /** The active profile's items of one kind as its store holds them, its first look awaited when needed. */
  async items<T>(definition: StateDefinition<T, unknown, ComputeClient>): Promise<readonly T[]> {
    if (!this.store(definition)?.loaded) await this.look();
    return this.store(definition)?.items ?? [];
  }

  /** The active profile's first look: joins the poll running (a switch just woke it) or polls now. */
  look(): Promise<void> {
    return this.active?.scheduler.look() ?? Promise.resolve();
  }

  /** Listing calls made so far by every scheduler, or by one profile's (the in-host tests compare it). */
  listings(profileId?: string): number {
    let total = 0;
    for (const [id, { watch }] of this.watches) if (profileId === undefined || id === profileId) total += watch.scheduler.listings;
    return total;
  }

  /** Re-reads which profiles to watch (a pause timer was set or cancelled). */
  resync(): void {
    this.sync();
  }

  /** Which profiles should be watched: the active one; others as the setting says, else when they need it. */
  private wanted(): Profile[] {
    const { profiles, config } = this.services;
    const flags = config.watchProfiles;
    const active = profiles.active;
    return profiles.all.filter((profile) => {
      if (profile.id === active?.id) return true;
      const flag = flags[profile.label] ?? flags[profile.id];
      return flag ?? this.needsWatching(profile);
    });
  }

  /** Creates, keeps or drops schedulers to match the wanted profiles (an edited profile starts afresh). */
  private sync(): void {
    const wanted = new Map(this.wanted().map((profile) => [profile.id, profile]));
    let changed = false;
    for (const [id, entry] of this.watches) {
      const profile = wanted.get(id);
      if (profile && JSON.stringify(profile) === entry.identity) continue;
      this.drop(entry);
      this.watches.delete(id);
      changed = true;
    }
    for (const profile of wanted.values()) {
      if (this.watches.has(profile.id)) continue;
      this.watches.set(profile.id, this.create(profile));
      changed = true;
    }
    if (changed) this.watchChanged.fire();
  }

  private drop(entry: Entry): void {
    for (const detach of entry.detach.values()) detach();
    entry.watch.scheduler.dispose();
  }

  private create(profile: Profile): Entry {
    // Timed polls are background work, even when a command woke the loop: the request history keeps a
    // command's own requests, not the polls that follow it.
    const clock: SchedulerClock = { ...SYSTEM_CLOCK, setTimer: (callback, ms) => SYSTEM_CLOCK.setTimer(() => runInBackground(callback), ms) };
    const scheduler = new PollScheduler<ComputeClient>(profile.id, () => this.services.computeClientFor(profile), { intervalMs: this.services.config.watchIntervalMs }, clock);
    scheduler.setFocused(vscode.window.state.focused);
    const tasks = scheduler.store(TASK_STATE);
    const watch: ProfileWatch = { profile, scheduler, tasks };
    // Every kind's failed polls go to the log (its listeners go with the scheduler).
    scheduler.onStore((store) => void store.onError((error) => this.services.logger.warn(`Watching ${profile.label} (${store.kind}): ${errorMessage(error)}`)));
    const detach = new Map(this.subscriptions.map((subscription) => [subscription, this.attach(watch, subscription)] as const));
    scheduler.wake();
    return { watch, identity: JSON.stringify(profile), detach };
  }

  private attach(watch: ProfileWatch, subscription: Subscription<unknown>): () => void {
    const store = watch.scheduler.store(subscription.definition);
    const listener: ChangeListener<unknown> = (change) => subscription.listener(change, watch.profile);
    const stopChanges = store.onChange(listener, subscription.phase);
    const onError = subscription.onError;
    if (!onError) return stopChanges;
    const stopErrors = store.onError((error) => onError(error, watch.profile));
    return () => {
      stopChanges();
      stopErrors();
    };
  }

  dispose(): void {
    for (const entry of this.watches.values()) this.drop(entry);
    this.watches.clear();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
