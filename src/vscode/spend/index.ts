// The money-and-time area: notifications on task state changes, spend and burn rate in the status
// bar, budgets with opt-in auto-pause, and the Spend view. Wires the parts to the active profile and
// hands the composition root a MoneyApi (read by the in-host tests).

import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import { burnRate } from '../../core/spend/spend';
import type { ChatApi } from '../chat/index';
import type { ComputeApi } from '../views/computeApi';
import type { ExtensionServices } from '../services';
import { BudgetGuard, type AutoPauseResult } from './budgetGuard';
import { NotificationCenter, type ShownNotification } from '../ui/notificationCenter';
import { PriceBook } from './priceBook';
import { SpendPanel } from './spendPanel';
import { SpendTracker, type SpendState } from './spendTracker';
import type { SpendViewData } from '../../shared/spendProtocol';
import { SpendStatusBar } from './spendStatusBar';
import { MONEY_COMMANDS } from './commands';
import { Commands } from '../commandIds';
import { registerCommandTable } from '../commands/commandTable';
import { Config } from '../config';
import { TaskNotifier } from '../tasks/index';
import { PauseTimerService } from './pauseTimerService';
import { deleteNode, explainFailure } from '../tasks/index';
import { TaskUpdateFlow } from '../tasks/index';

export interface MoneyApi {
  /** Notifications shown this session, oldest first. */
  notifications(): readonly ShownNotification[];
  /** Runs a shown notification's action as a click would (e.g. "Recover"). */
  choose(notification: ShownNotification, action: string): Promise<void>;
  /** Whether the task watcher is polling now. */
  watching(): boolean;
  /** Polls now (as after a create). */
  wakeWatcher(): void;
  /** Fetches spend now and checks the budget against it (auto-pause included). */
  checkBudgetNow(): Promise<SpendState | undefined>;
  lastAutoPause(): AutoPauseResult | undefined;
  statusBarText(): string;
  /** Pause timers: `useClock` swaps the clock (the in-host tests move time), `runDue` acts on what is due. */
  readonly timers: PauseTimerService;
  /** Opens the Spend view and resolves with the figures it was sent. */
  openSpend(): Promise<SpendViewData | undefined>;
  /** What Explain Failure sends to the chat for a task (and sends it). */
  explainFailure(taskId: number): Promise<string>;
  /** The task update flow (start, then reviewAndSend). */
  readonly updates: TaskUpdateFlow;
  /** Deletes one node without the confirmation (the command asks first). */
  deleteNode(taskId: number, pointId: number): Promise<void>;
}

export function registerMoney(services: ExtensionServices, compute: ComputeApi, chat: ChatApi): MoneyApi {
  const center = new NotificationCenter((line) => services.logger.info(line));
  const spend = new SpendTracker(services);
  const prices = new PriceBook(services);
  const statusBar = new SpendStatusBar();
  let latest: readonly TaskSummary[] = [];

  const guard = new BudgetGuard(services, center, {
    listRunning: async () => (await services.computeClient().call('task.list', { type: 'Deployment', status: 'Running', page_size: 100 })).results,
    pause: (taskId) => compute.pauseTask(taskId),
    recover: async (taskId) => {
      await compute.recoverTask(taskId);
      notifier.wake();
    },
    openSpend: () => vscode.commands.executeCommand(Commands.spendShow),
  });

  const updateStatusBar = (): void => {
    const rate = burnRate(latest, prices.priceOf);
    statusBar.update({ visible: services.profiles.active !== undefined && services.config.spendStatusBar, ...rate, spend: spend.current?.summary });
  };

  const checkBudget = async (force: boolean): Promise<SpendState | undefined> => {
    const state = await spend.refresh(force);
    if (state) await guard.check(state);
    return state;
  };

  const panel = new SpendPanel(services, {
    summary: async () => (await spend.refresh())?.summary,
    burnPointsPerSecond: () => burnRate(latest, prices.priceOf).pointsPerSecond,
  });

  const timers = new PauseTimerService(services, center, {
    pause: (taskId) => compute.pauseTask(taskId),
    isRunning: async (taskId) => (await services.computeClient().call('task.detail', { task_id: taskId })).status === 'Running',
    rerender: () => compute.rerenderTasks(),
  });
  compute.annotateTasks((taskId) => {
    const text = timers.annotation(taskId);
    return text === undefined ? undefined : { text, tags: ['pauseTimer'] };
  });
  const updates = new TaskUpdateFlow(services, () => {
    void compute.refresh('tasks');
    notifier.wake();
  });

  const notifier = new TaskNotifier(services, center, {
    showTask: (taskId) => compute.revealTask(taskId),
    onPoll: (tasks) => {
      latest = tasks;
      updateStatusBar();
      // Spend only moves while something runs; prices only matter then too.
      if (tasks.some((task) => task.status === 'Running')) {
        prices.ensure().then(updateStatusBar, (error: unknown) => services.logger.warn(`Prices for the burn rate: ${String(error)}`));
        checkBudget(false).catch((error: unknown) => services.logger.warn(`Spend: ${error instanceof Error ? error.message : String(error)}`));
      }
    },
  });

  services.context.subscriptions.push(
    notifier,
    spend,
    statusBar,
    spend.onDidChange(updateStatusBar),
    services.profiles.onDidChangeActive(() => {
      latest = [];
      updateStatusBar();
      void timers.start();
    }),
    services.config.onDidChange((event) => {
      if (Config.affects(event, 'spend') || Config.affects(event, 'budgets')) updateStatusBar();
    }),
    // A task created, recovered or scaled here starts moving: watch it from now on.
    // (Only when the view shows a task that can change: the watcher stays quiet while all rest.)
    compute.onDidRefresh((view) => {
      if (view !== 'tasks' || notifier.active) return;
      if (compute.listedTasks().some((task) => task.status === 'Pending' || task.status === 'Running')) notifier.wake();
    }),
    panel,
    timers,
    ...registerCommandTable(MONEY_COMMANDS, { services, panel, timers, compute, chat, notifier, updates }, services.reportError),
  );
  updateStatusBar();
  void timers.start();

  return {
    notifications: () => center.shown,
    choose: (notification, action) => center.choose(notification, action),
    watching: () => notifier.active,
    wakeWatcher: () => notifier.wake(),
    checkBudgetNow: () => checkBudget(true),
    lastAutoPause: () => guard.lastAutoPause,
    statusBarText: () => statusBar.text,
    timers,
    updates,
    explainFailure: async (taskId) => {
      const task = compute.listedTasks().find((candidate) => candidate.task_id === taskId) ?? (await services.computeClient().call('task.detail', { task_id: taskId }));
      return explainFailure(services, chat, task);
    },
    deleteNode: async (taskId, pointId) => {
      const task = await services.computeClient().call('task.detail', { task_id: taskId });
      const node = (await services.computeClient().call('node.list', { task_id: taskId })).results.find((candidate) => candidate.point_id === pointId);
      if (!node) throw new Error(`task ${taskId} has no node ${pointId}`);
      await deleteNode(services, { task, node }, false);
    },
    openSpend: async () => {
      panel.show();
      return panel.load();
    },
  };
}
