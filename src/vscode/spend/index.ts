// The spend area: spend and burn rate in the status bar, budgets with opt-in auto-pause, pause
// timers, and the Spend page. It lists no tasks: the burn rate, budgets, timers, the status bar and
// an open Spend page follow the remote-state store (state/) of every watched profile.

import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import { burnRate, offerKey } from '../../core/spend/spend';
import type { SpendRentalsPort, SpendTasks } from './ports';
import { MACHINE_STATE } from '../../core/machines/machineState';
import { taskServiceFor } from '../client/computeServices';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices, Profile } from '../services';
import type { RemoteState } from '../state/index';
import { BudgetGuard, type AutoPauseResult } from './budgetGuard';
import type { NotificationCenter } from '../ui/notificationCenter';
import { PriceBook } from './priceBook';
import { SpendPanel } from './spendPanel';
import { SPEND_REFRESH_MS, SpendTracker, type SpendState } from './spendTracker';
import type { SpendViewData } from '../../shared/spendProtocol';
import { SpendStatusBar } from './spendStatusBar';
import { MONEY_COMMANDS } from './commands';
import { Commands } from '../commandIds';
import { budgetFor } from './budgetSettings';
import { registerCommandTable } from '../commands/commandTable';
import { Config } from '../config';
import { PauseTimerService } from './pauseTimerService';
import { errorMessage } from '../../shared/errorMessage';
import { windowPrompts, type BudgetFormContext, type BudgetPrompts } from './budgetForm';
import { budgetLines } from './budgetText';
import type { SpendSummary } from '../../core/spend/spend';
import { ActivityRegistry } from '../../core/spend/activity';
// Other areas word a held pause the same way (deployments' idle pause).

export interface SpendApi {
  /** Fetches spend now and checks the budget against it (auto-pause included). */
  checkBudgetNow(): Promise<SpendState | undefined>;
  lastAutoPause(): AutoPauseResult | undefined;
  statusBarText(): string;
  /** Pause timers: `useClock` swaps the clock (the in-host tests move time), `runDue` acts on what is due. */
  readonly timers: PauseTimerService;
  /** Opens the Spend view and resolves with the figures it was sent. */
  openSpend(): Promise<SpendViewData | undefined>;
  /** The Spend page's last figures (updated by store events while open). */
  spendPageData(): SpendViewData | undefined;
  /** Fires after every poll of the active profile's tasks (deployments discover from it: no extra list). */
  readonly onDidPollTasks: vscode.Event<readonly TaskSummary[]>;
  /** A running task's effective price per node (points/s) from the price book, loading it when stale. */
  priceOfTask(task: TaskSummary): Promise<number | undefined>;
  /** The store polls the active profile now and hands back its active tasks (nothing else lists tasks). */
  refreshTasks(): Promise<readonly TaskSummary[]>;
  /** Set Budget…'s pickers: the in-host tests script them (undefined: VS Code's own again). */
  useBudgetPrompts(prompts: BudgetPrompts | undefined): void;
  /** The status bar item's tooltip (Markdown). */
  statusBarTooltip(): string;
  /** The one activity rule's registry: areas add what is active on their tasks (core/spend/activity.ts). */
  readonly activity: ActivityRegistry;
  /** A task row's pause timer (time left, and its menu tag); the Tasks view reads it as it draws a row. */
  taskAnnotation(taskId: number): { text: string; tags: readonly 'pauseTimer'[] } | undefined;
}

/** Whether a profile has something the spend area watches over: a budget or a pause timer. */
export function spendNeedsWatching(services: ExtensionServices): (profile: Profile) => boolean {
  return (profile) =>
    budgetFor(profile, services.config.budgetsPerProfile, services.config.budgetThresholds) !== undefined ||
    services.state.get('pauseTimers').some((timer) => timer.profileId === profile.id);
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerSpend(services: ExtensionServices, compute: SpendTasks, state: RemoteState, center: NotificationCenter, rentals: SpendRentalsPort, own: vscode.Disposable[] = []): RegisteredArea<SpendApi> {
  const spend = new SpendTracker(services);
  own.push(spend);
  const activity = new ActivityRegistry();
  const activityOn = (profileId: string, taskId: number) => activity.of(profileId, taskId, (error) => services.logger.warn(`Activity source: ${errorMessage(error)}`));
  const prices = new PriceBook(services);
  const statusBar = new SpendStatusBar();
  own.push(statusBar);
  const activeTasks = (): readonly TaskSummary[] => state.tasks?.items ?? [];
  const isActive = (profile: Profile): boolean => profile.id === services.profiles.active?.id;

  /** Pause or recover through the Tasks view for the active profile, or the task service of the profile's own client (the same TaskService.lifecycle either way). */
  const lifecycle = async (action: 'pause' | 'recover', profile: Profile, taskId: number): Promise<void> => {
    if (isActive(profile)) {
      await (action === 'pause' ? compute.pauseTask(taskId) : compute.recoverTask(taskId));
      return;
    }
    await taskServiceFor(services, profile, () => state.wake(profile.id)).lifecycle(action, taskId);
  };
  const profileById = (profileId: string): Profile | undefined => services.profiles.all.find((profile) => profile.id === profileId);
  const polled = new vscode.EventEmitter<readonly TaskSummary[]>();
  own.push(polled);

  const guard = new BudgetGuard(services, center, {
    listRunning: async (profile) => {
      const watch = state.of(profile.id);
      if (!watch) return [];
      await watch.scheduler.refresh();
      return watch.tasks.items;
    },
    pause: (profile, taskId) => lifecycle('pause', profile, taskId),
    recover: (profile, taskId) => lifecycle('recover', profile, taskId),
    openSpend: () => vscode.commands.executeCommand(Commands.spendShow),
    activity: activityOn,
    notOnTasks: (profileId) => activity.notOnTasks(profileId, (error) => services.logger.warn(`Activity source: ${errorMessage(error)}`)),
  });

  const burn = (): ReturnType<typeof burnRate> => burnRate(activeTasks(), prices.priceOf);
  const activeBudgetLines = (summary: SpendSummary | undefined): string[] => {
    const profile = services.profiles.active;
    return profile ? budgetLines(budgetFor(profile, services.config.budgetsPerProfile, services.config.budgetThresholds), summary) : [];
  };
  const updateStatusBar = (): void => {
    const current = spend.current;
    statusBar.update({
      visible: services.profiles.active !== undefined && services.config.spendStatusBar,
      ...burn(),
      spend: current,
      budget: activeBudgetLines(current?.summary),
    });
  };
  let budgetPrompts: BudgetPrompts | undefined;
  const budgetForm: BudgetFormContext = {
    services,
    spendOf: async (profile) => (await spend.refresh(false, profile))?.summary,
    prompts: () => budgetPrompts ?? windowPrompts,
  };

  const checkBudget = async (force: boolean, profile?: Profile): Promise<SpendState | undefined> => {
    const current = await spend.refresh(force, profile);
    if (current) await guard.check(current);
    return current;
  };
  const logSpendError = (error: unknown): void => services.logger.warn(`Spend: ${errorMessage(error)}`);

  const panel = new SpendPanel(services, {
    summary: async () => (await spend.refresh())?.summary,
    burnPointsPerSecond: () => burn().pointsPerSecond,
    budgetLines: activeBudgetLines,
    setBudget: () => void vscode.commands.executeCommand(Commands.spendSetBudget, services.profiles.active?.id),
    rentals,
  });
  own.push(panel);

  const timers = new PauseTimerService(services, center, {
    pause: async (profileId, taskId) => {
      const profile = profileById(profileId);
      if (profile) await lifecycle('pause', profile, taskId);
    },
    recover: async (profileId, taskId) => {
      const profile = profileById(profileId);
      if (profile) await lifecycle('recover', profile, taskId);
    },
    // The store's fresh look at the profile (one poll), not a detail request per timer.
    isRunning: async (profileId, taskId) => {
      const watch = state.of(profileId);
      if (!watch) return false;
      await watch.scheduler.refresh();
      return watch.tasks.get(taskId)?.status === 'Running';
    },
    rerender: () => {
      compute.rerenderTasks();
      state.resync(); // a profile with a timer is watched even while another one is active
    },
    activity: activityOn,
  });
  own.push(timers);

  // Spend moves on a slow cadence whatever runs (charges post every 5 minutes): the status bar's
  // "today" never stays stale, and the tooltip says how old the figure is.
  const spendTicker = setInterval(() => {
    if (services.profiles.active) spend.refresh().catch(logSpendError);
    updateStatusBar();
  }, SPEND_REFRESH_MS);
  own.push({ dispose: () => clearInterval(spendTicker) });

  own.push(
    spend.onDidChange((changed) => {
      if (changed.profileId === services.profiles.active?.id) {
        updateStatusBar();
        panel.updateFigures({ summary: changed.summary, burnPointsPerSecond: burn().pointsPerSecond });
      }
    }),
  );
  own.push(
    // One poll of any watched profile: burn rate, spend and budget of that profile; the status bar and
    // an open Spend page of the active one. (The Tasks view took the same change before this.)
    state.followTasks((change, profile) => {
      const running = change.items.some((task) => task.status === 'Running');
      const stopped = change.removed.length > 0 || change.changed.some(({ before, after }) => before.status !== after.status);
      if (running || stopped) {
        // Spend only moves while something runs (and once more after it stopped); the tracker's cadence caps the requests.
        checkBudget(stopped, profile).catch(logSpendError);
      }
      if (!isActive(profile)) return;
      polled.fire(change.items);
      if (running) prices.ensure().then(updateStatusBar, (error: unknown) => services.logger.warn(`Prices for the burn rate: ${errorMessage(error)}`));
      updateStatusBar();
      panel.updateFigures({ burnPointsPerSecond: burn().pointsPerSecond });
    }),
  );
  own.push(
    // The rented machines' rows on an open page follow the store (a renewal, a new rental, an end).
    state.follow(MACHINE_STATE, (_change, profile) => {
      if (isActive(profile)) void panel.updateRentals();
    }),
  );
  own.push(
    services.profiles.onDidChangeActive(() => {
      updateStatusBar();
      spend.refresh().catch(logSpendError);
    }),
  );
  own.push(
    services.config.onDidChange((event) => {
      if (Config.affects(event, 'spend') || Config.affects(event, 'budgets')) updateStatusBar();
      if (Config.affects(event, 'machines')) void panel.updateRentals();
      if (Config.affects(event, 'budgets')) {
        panel.updateFigures({ budgetChanged: true });
        // A new or lowered limit is checked against the spend at once (warnings, and auto-pause when chosen).
        checkBudget(false).catch(logSpendError);
      }
    }),
  );
  own.push(...registerCommandTable(MONEY_COMMANDS, { services, panel, timers, compute, budgetForm }, services.reportError));
  updateStatusBar();
  if (services.profiles.active) spend.refresh().catch(logSpendError);
  void timers.start();

  const api: SpendApi = {
    activity,
    checkBudgetNow: () => checkBudget(true),
    lastAutoPause: () => guard.lastAutoPause,
    statusBarText: () => statusBar.text,
    timers,
    openSpend: async () => {
      panel.show();
      return panel.load();
    },
    spendPageData: () => panel.lastData,
    onDidPollTasks: polled.event,
    refreshTasks: async () => {
      await state.refresh();
      return activeTasks();
    },
    useBudgetPrompts: (prompts) => {
      budgetPrompts = prompts;
    },
    statusBarTooltip: () => statusBar.tooltipMarkdown,
    priceOfTask: async (task) => {
      await prices.ensure();
      const resource = task.resources[0]?.resource;
      return resource ? prices.priceOf(offerKey(resource.device_name, resource.region)) : undefined;
    },
    taskAnnotation: (taskId) => {
      const text = timers.annotation(taskId);
      return text === undefined ? undefined : { text, tags: ['pauseTimer'] };
    },
  };
  return { api, disposables: own };
}
