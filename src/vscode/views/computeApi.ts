// What the compute area hands to the composition root, which returns it in the extension's exports:
// the in-host tests read tree rows and drive tasks through it without clicking (and without timing).
import type * as vscode from 'vscode';
import type { StorageCheckBody, TaskSummary } from '../../core/compute/api';
import type { NodeLogTarget } from '../tasks/nodeLog';
import type { ResourceFilterStore } from '../resources/resourceFilter';
import type { StorageCheckResult } from '../storage/storageCheck';
import type { RegionChoice } from '../resources/resourceSearch';
import type { TaskCreateInput } from '../tasks/taskInput';

export type ComputeViewName = 'resources' | 'tasks' | 'storage';

/** One tree row as the user sees it. */
export interface TreeRow {
  id: string | undefined;
  label: string;
  description: string | undefined;
  /** e.g. `device`, `region`, `task.Running`, `service`, `serviceUrl`, `node`, `storage`, `error`. */
  contextValue: string | undefined;
  /** Codicon id, e.g. `sync~spin`, `pass`, `debug-pause`, `circle-slash`. */
  icon: string | undefined;
  tooltip: string | undefined;
  /** Present when the row was expanded by snapshot({depth}). */
  children?: TreeRow[];
}

export interface ViewSnapshot {
  /** TreeView.message: errors and empty states. */
  message: string | undefined;
  rows: TreeRow[];
}

export interface ComputeApi {
  /** Reloads one view from the platform; resolves when its load settled (success or error). */
  refresh(view: ComputeViewName): Promise<void>;
  /** Fires after each load of a view settles (and after a profile switch cleared it). */
  readonly onDidRefresh: vscode.Event<ComputeViewName>;
  /** The rows a view shows now (loading it first if it never loaded); depth 1 = top level only. */
  snapshot(view: ComputeViewName, options?: { depth?: number }): Promise<ViewSnapshot>;
  /** A fresh resource search flattened to regions: what the create wizard's region step lists. */
  searchRegions(signal?: AbortSignal): Promise<RegionChoice[]>;
  /** The Resources filter (GPU model, VRAM, price, region, stock) the view, search and wizard share. */
  readonly resourceFilter: ResourceFilterStore;
  /** Creates a task exactly as the wizard does after its review step; returns the task id. */
  createTask(input: TaskCreateInput, signal?: AbortSignal): Promise<number>;
  pauseTask(taskId: number): Promise<void>;
  recoverTask(taskId: number): Promise<void>;
  /** Deletes the task (the command asks first; this does not). */
  stopTask(taskId: number): Promise<void>;
  changePoints(taskId: number, points: number): Promise<void>;
  /** Opens the task's read-only JSON detail (key `task/<id>`). */
  openTaskDetail(taskId: number): Promise<vscode.TextEditor>;
  /** The storage check the wizard sends (encrypted); an envelope failure comes back as pass: false. */
  checkStorage(body: StorageCheckBody, signal?: AbortSignal): Promise<StorageCheckResult>;
  /** Opens the node's own log document (named after the node) at its end and starts following it. */
  openNodeLog(target: NodeLogTarget): Promise<vscode.TextEditor>;
  /** Shows and selects a task's row in the Tasks view (no focus change). */
  revealTask(taskId: number): void;
  /** The tasks the Tasks view holds now (no request). */
  listedTasks(): readonly TaskSummary[];
  /** Redraws the task rows from what is loaded (their annotations read again), without a request. */
  rerenderTasks(): void;
  /** Runs one follow round of the open node logs now (what the timer does every few seconds). */
  followNodeLogs(): Promise<void>;
  /** True while the node's log is followed. */
  isFollowingNodeLog(target: NodeLogTarget): boolean;
}
