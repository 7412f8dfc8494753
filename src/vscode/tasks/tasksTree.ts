// The Tasks view: running, pending and paused tasks first (every one of them, page after page), then
// a collapsed "Ended (N)" group whose tasks load page by page; each task → services (public URLs) and
// nodes. A filter (name, id, status, GPU) narrows both. Active rows come from the remote-state store
// (state/), whose polls reach this view first; the first ended page is read again only when a task
// left the active list, so polling cost does not grow with the history.
import { Commands, ContextKeys, Views } from '../commandIds';
import * as vscode from 'vscode';
import type { TaskStatus, TaskSummary } from '../../core/compute/api';
import { filterWords, matchesTaskFilter } from '../../core/tasks/taskFilter';
import type { TaskPager } from '../../core/tasks/taskPager';
import { TasksViewData, type ActiveTasks } from '../../core/tasks/tasksViewData';
import { isAbort } from '../../core/errors';
import { taskServiceOf } from '../client/computeServices';
import type { ExtensionServices, Profile } from '../services';
import type { StateChange } from '../../core/state/definition';
import type { RemoteState } from '../state/index';
import { RemoteTree } from '../trees/remoteTree';
import { EndedGroupItem, LoadMoreItem } from './taskGroups';
import { NodeItem, NodesGroupItem, ServiceItem, ServiceUrlItem, TaskItem, type TaskAnnotation, type TaskElement } from './taskRows';
import { ErrorRow, InfoRow, viewMessage } from '../trees/treeMessages';
import { errorMessage } from '../../shared/errorMessage';

export const TASKS_VIEW_ID = Views.tasks;

/** How long a task we just created is shown before the platform lists it (eventual consistency). */
const OPTIMISTIC_TTL_MS = 120_000;

export type { ActiveTasks } from '../../core/tasks/tasksViewData';

export class TasksTree extends RemoteTree<ActiveTasks, TaskElement> {
  /** Tasks created here that the platform does not list yet, shown at once (by id). */
  private readonly optimistic = new Map<number, { task: TaskSummary; addedAt: number }>();
  /** What the view reads: every active task, and ended tasks page by page. */
  private readonly model: TasksViewData;
  private filterText = '';
  private words: string[] = [];
  /** Redraws the rows from what is loaded, without a request. */
  rerender(): void {
    this.render();
  }

  /** The next load polls the store now (user refresh, after an action) instead of taking what it holds. */
  private forceNextLoad = false;

  constructor(
    services: ExtensionServices,
    private readonly state: RemoteState,
    /** Text and tags another area adds to task rows (pause timers); it calls `rerender()` when they change. */
    private readonly annotate: (taskId: number) => TaskAnnotation | undefined = () => undefined,
  ) {
    super(services, TASKS_VIEW_ID, (signal) => this.loadTasks(signal));
    this.model = new TasksViewData(
      (page, size, signal) => taskServiceOf(this.services).endedPage(page, size, signal),
      async () => {
        const force = this.forceNextLoad;
        this.forceNextLoad = false;
        if (force) await state.refresh();
        // A poll running now (the first look, or a restart after a key change) is fresher than what is held.
        else if (!state.tasks?.loaded || state.active?.scheduler.busy) await state.look();
        const store = state.tasks;
        if (!store) return { items: [], complete: true, total: 0 };
        if (store.error !== undefined) throw store.error;
        return { items: store.items, ...store.completeness };
      },
    );
    // The store's poll reaches the view first (before notifications, spend and the rest).
    this.disposables.push(state.followTasks((change, profile) => this.take(change, profile), 'view'));
  }

  /** A poll of the active profile's tasks: new rows at once, and the ended count when a task left. */
  private async take(change: StateChange<TaskSummary>, profile: Profile): Promise<void> {
    if (profile.id !== this.services.profiles.active?.id || this.data.loading) return;
    if (change.removed.length > 0) await this.model.afterEnded();
    const completeness = this.state.tasks?.completeness ?? { complete: true, total: change.items.length };
    this.data.accept({ tasks: [...change.items], count: completeness.total, truncated: !completeness.complete });
  }

  /** Ended tasks, read page by page. */
  get ended(): TaskPager {
    return this.model.ended;
  }

  /** The active tasks the view shows: the platform's list plus tasks created here it does not list yet. */
  get tasks(): TaskSummary[] {
    return this.merge(this.data.value?.tasks ?? []);
  }

  /** Every task with one of `statuses`, reading all ended pages when End (or Other) is asked for. */
  async tasksWith(statuses: readonly TaskStatus[], signal?: AbortSignal): Promise<TaskSummary[]> {
    await this.data.ensureLoaded();
    const active = this.tasks.filter((task) => statuses.includes(task.status));
    if (!statuses.includes('End') && !statuses.includes('Other')) return active;
    await this.ended.loadAll(signal);
    this.render();
    const activeIds = new Set(active.map((task) => task.task_id));
    return [...active, ...this.ended.items.filter((task) => statuses.includes(task.status) && !activeIds.has(task.task_id))];
  }

  findTask(taskId: number): TaskSummary | undefined {
    return this.tasks.find((task) => task.task_id === taskId) ?? this.ended.items.find((task) => task.task_id === taskId);
  }

  hasPending(): boolean {
    return this.tasks.some((task) => task.status === 'Pending');
  }

  /** Shows a just-created task at once; the next refresh replaces it with the platform's row. */
  insertOptimistic(task: TaskSummary): void {
    this.optimistic.set(task.task_id, { task, addedAt: Date.now() });
    this.render();
  }

  /** A user refresh polls the store now and re-reads the ended count. */
  override refresh(): Promise<void> {
    this.model.markEndedStale();
    this.forceNextLoad = true;
    return super.refresh();
  }

  /** After an action here (create, pause, scale): the next load polls now, and polling resumes. */
  refreshAfterChange(): Promise<void> {
    this.forceNextLoad = true;
    return this.data.refreshAfterChange();
  }

  get filter(): string {
    return this.filterText;
  }

  /** Narrows the view to tasks whose name, id, status or GPU match every word (empty clears). */
  setFilter(text: string): void {
    this.filterText = text.trim();
    this.words = filterWords(this.filterText);
    void vscode.commands.executeCommand('setContext', ContextKeys.tasksFiltered, this.words.length > 0);
    this.render();
  }

  /** Reads the next page of ended tasks into the group. */
  async loadMoreEnded(): Promise<void> {
    try {
      await this.ended.loadMore();
    } catch (error) {
      if (!isAbort(error)) this.services.logger.warn(`Tasks: could not load more ended tasks: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.render();
  }

  message(): string | undefined {
    if (!this.services.profiles.active) return undefined;
    const state = this.data.state;
    if (state.kind === 'loaded' && this.optimistic.size > 0) return undefined;
    if (state.kind === 'loaded' && this.words.length > 0 && !this.tasks.some((task) => matchesTaskFilter(task, this.words))) {
      return vscode.l10n.t('No active task matches "{0}"; ended tasks are searched when the Ended group is expanded.', this.filterText);
    }
    const empty = (value: ActiveTasks): boolean => value.tasks.length === 0 && this.ended.count === 0;
    return viewMessage(state, 'tasks', this.services.redactor, empty, vscode.l10n.t('No tasks yet. Create one with + or from a region in Resources.'));
  }

  getParent(element: TaskElement): TaskElement | undefined {
    return 'parent' in element ? element.parent : undefined;
  }

  async getChildren(element?: TaskElement): Promise<TaskElement[]> {
    if (!element) return this.rootChildren();
    switch (element.kind) {
      case 'task':
        return [
          ...element.task.services.map((service) => new ServiceItem(element.task, service, element)),
          new NodesGroupItem(element.task, element),
        ];
      case 'service':
        return element.service.remote_ports.map((port) => new ServiceUrlItem(element.task, element.service, port, element));
      case 'nodes':
        return this.nodeChildren(element);
      case 'ended':
        return this.endedChildren(element);
      default:
        return [];
    }
  }

  protected override render(): void {
    if (this.view) this.view.description = this.countLine();
    super.render();
  }

  /** "3 active · 1,950 ended" (and the filter), beside the view's title. */
  private countLine(): string | undefined {
    const value = this.data.value;
    if (!value || !this.services.profiles.active) return this.filterText ? vscode.l10n.t('filter: {0}', this.filterText) : undefined;
    const active = this.tasks.length;
    const ended = this.ended.count;
    const counts =
      ended === undefined ? vscode.l10n.t('{0} active', active.toLocaleString('en-US')) : vscode.l10n.t('{0} active · {1} ended', active.toLocaleString('en-US'), ended.toLocaleString('en-US'));
    return this.filterText ? `${counts} · ${vscode.l10n.t('filter: {0}', this.filterText)}` : counts;
  }

  private async rootChildren(): Promise<TaskElement[]> {
    if (!this.services.profiles.active) return [];
    await this.data.ensureLoaded();
    const state = this.data.state;
    if (state.kind === 'failed' && !state.stale && this.optimistic.size === 0) return [new ErrorRow(state.error, 'tasks', Commands.tasksRefresh, this.services.redactor)];
    const rows: TaskElement[] = this.tasks.filter((task) => matchesTaskFilter(task, this.words)).map((task) => new TaskItem(task, undefined, this.annotate(task.task_id)));
    const value = this.data.value;
    if (value?.truncated) {
      rows.push(new InfoRow('tasks/truncated', vscode.l10n.t('Showing the first {0} of {1} active tasks', value.tasks.length, value.count), 'warning'));
    }
    if (this.ended.count !== 0 || this.ended.error !== undefined) {
      const matching = this.words.length > 0 && !this.ended.hasMore && this.ended.count !== undefined ? this.endedMatches().length : undefined;
      rows.push(new EndedGroupItem(this.ended.count, matching, this.ended.error !== undefined));
    }
    return rows;
  }

  private endedMatches(): TaskSummary[] {
    const activeIds = new Set(this.tasks.map((task) => task.task_id));
    return this.ended.items.filter((task) => !activeIds.has(task.task_id) && matchesTaskFilter(task, this.words));
  }

  /** Ended tasks read so far and a "Load more…" row; with a filter, every ended task is read first. */
  private async endedChildren(group: EndedGroupItem): Promise<TaskElement[]> {
    try {
      if (this.words.length > 0) {
        const before = this.ended.hasMore;
        await this.ended.loadAll();
        // The group's label counts the matches once every row is read: refresh it.
        if (before) setTimeout(() => this.render(), 0);
      } else if (this.ended.count === undefined) {
        await this.ended.loadMore();
      }
    } catch (error) {
      if (!isAbort(error)) this.services.logger.warn(`Tasks: could not load ended tasks: ${error instanceof Error ? error.message : String(error)}`);
    }
    const rows: TaskElement[] = this.endedMatches().map((task) => new TaskItem(task, group));
    const count = this.ended.count;
    if (this.ended.error !== undefined) {
      // eslint-disable-next-line no-restricted-syntax -- the row's id; ErrorRow words it (loadedThing)
      const row = new ErrorRow(this.ended.error, 'ended tasks', Commands.tasksLoadMoreEnded, this.services.redactor);
      row.id = 'tasks/ended/error';
      rows.push(row);
    } else if (this.ended.hasMore && count !== undefined) {
      rows.push(new LoadMoreItem(this.ended.items.length, count, group));
    } else if (rows.length === 0 && this.words.length > 0) {
      rows.push(new InfoRow('tasks/ended/none', vscode.l10n.t('No ended task matches "{0}"', this.filterText)));
    }
    return rows;
  }

  /** Nodes load when the group expands (every page); a failure becomes a row, never a popup. */
  private async nodeChildren(group: NodesGroupItem): Promise<TaskElement[]> {
    try {
      const nodes = await taskServiceOf(this.services).allNodes(group.task.task_id);
      if (nodes.items.length === 0) {
        const why = group.task.status === 'Pending' ? vscode.l10n.t('No nodes yet (scheduling…)') : vscode.l10n.t('No nodes');
        return [new InfoRow(`task/${group.task.task_id}/nodes/empty`, why)];
      }
      const rows: TaskElement[] = nodes.items.map((node) => new NodeItem(group.task, node, group));
      if (nodes.truncated) rows.push(new InfoRow(`task/${group.task.task_id}/nodes/truncated`, vscode.l10n.t('Showing the first {0} of {1} nodes', nodes.items.length, nodes.count), 'warning'));
      return rows;
    } catch (error) {
      this.services.logger.warn(`Tasks: could not list nodes of task ${group.task.task_id}: ${errorMessage(error)}`);
      const row = new ErrorRow(error, 'nodes', Commands.tasksRefresh, this.services.redactor);
      row.id = `task/${group.task.task_id}/nodes/error`;
      return [row];
    }
  }

  /** Every active task (and the ended group's first page when due): tasksViewData.ts. */
  private async loadTasks(signal: AbortSignal): Promise<ActiveTasks> {
    try {
      return await this.model.load(this.data.value, signal);
    } catch (error) {
      this.services.logger.warn(`Tasks: could not load the task list: ${errorMessage(error)}`);
      throw error;
    }
  }

  private merge(listed: readonly TaskSummary[]): TaskSummary[] {
    const now = Date.now();
    const listedIds = new Set(listed.map((task) => task.task_id));
    const extra: TaskSummary[] = [];
    for (const [id, entry] of this.optimistic) {
      // Once the platform lists the task (or it took too long), its own row is the truth.
      if (listedIds.has(id) || now - entry.addedAt > OPTIMISTIC_TTL_MS) this.optimistic.delete(id);
      else extra.push(entry.task);
    }
    return [...extra, ...listed];
  }

  /** Profile switch: drop rows, ended pages and optimistic tasks of the old profile. */
  override reset(): void {
    this.optimistic.clear();
    this.model.reset();
    this.data.reset();
  }
}
