// The Jobs view: the account's batch jobs (newest first) from the job store of the remote state
// (core/jobs/jobState.ts, listed on the profile's one poll loop), each with its phase, pods, elapsed
// time and what it has cost.

import * as vscode from 'vscode';
import type { JobSummary } from '../../core/jobs/operations';
import { formatElapsed, jobView, type JobPhase, type JobView } from '../../core/jobs/status';
import { formatPoints } from '../../core/spend/units';
import { taskStatusLabel } from '../ui/format';

export const JOB_CONTEXT = { live: 'job.live', ended: 'job.ended' } as const;

const ICONS: Record<JobPhase, vscode.ThemeIcon> = {
  queued: new vscode.ThemeIcon('watch', new vscode.ThemeColor('charts.yellow')),
  pending: new vscode.ThemeIcon('loading~spin'),
  running: new vscode.ThemeIcon('play-circle', new vscode.ThemeColor('charts.blue')),
  succeeded: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  stopped: new vscode.ThemeIcon('circle-slash'),
};

export function phaseLabel(phase: JobPhase): string {
  switch (phase) {
    case 'queued':
      return vscode.l10n.t('Queued (Spot)');
    case 'pending':
      return vscode.l10n.t('Pending');
    case 'running':
      return vscode.l10n.t('Running');
    case 'succeeded':
      return vscode.l10n.t('Succeeded');
    case 'failed':
      return vscode.l10n.t('Failed');
    case 'stopped':
      return vscode.l10n.t('Stopped');
  }
}

/** `job_status.status` in words (docs/platform.md: Pending, Manual, Running, Complete, Failed). */
export function executionLabel(execution: string): string {
  switch (execution) {
    case 'Pending':
      return vscode.l10n.t('Pending');
    case 'Manual':
      return vscode.l10n.t('Stopped by hand');
    case 'Running':
      return vscode.l10n.t('Running');
    case 'Complete':
      return vscode.l10n.t('Completed');
    case 'Failed':
      return vscode.l10n.t('Failed');
    default:
      return vscode.l10n.t('Other');
  }
}

/** A Spot job's `schedule_status` in words: Scheduled (has its GPUs) or Queued (waits for them). */
export function scheduleLabel(schedule: string | null): string {
  if (schedule === 'Scheduled') return vscode.l10n.t('Scheduled');
  if (schedule === 'Queued') return vscode.l10n.t('Queued');
  return '—';
}

export class JobItem extends vscode.TreeItem {
  constructor(readonly job: JobSummary, readonly view: JobView) {
    super(job.task_name, vscode.TreeItemCollapsibleState.None);
    const pods = vscode.l10n.t('{0}/{1} succeeded', view.succeeded, view.completions) + (view.failed > 0 ? ` · ${vscode.l10n.t('{0} failed', view.failed)}` : '');
    this.description = `${phaseLabel(view.phase)} · ${pods} · ${formatElapsed(view.elapsedSeconds)} · ${formatPoints(view.billedPoints)}`;
    this.iconPath = ICONS[view.phase];
    this.contextValue = view.ended ? JOB_CONTEXT.ended : JOB_CONTEXT.live;
    this.id = `job-${job.task_id}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${job.task_name} (${job.task_id})\n`);
    tooltip.appendText(vscode.l10n.t('Status: {0} · execution: {1}', taskStatusLabel(job.status), executionLabel(view.execution)) + '\n');
    if (view.spot) tooltip.appendText(vscode.l10n.t('Spot: {0}', scheduleLabel(view.schedule)) + '\n');
    tooltip.appendText(vscode.l10n.t('Pods: {0} succeeded, {1} failed, {2} active; {3} at once', view.succeeded, view.failed, view.active, view.parallelism) + '\n');
    tooltip.appendText(vscode.l10n.t('Elapsed {0} · billed {1}', formatElapsed(view.elapsedSeconds), formatPoints(view.billedPoints)));
    this.tooltip = tooltip;
  }
}

export class JobsTree implements vscode.TreeDataProvider<JobItem | vscode.TreeItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private jobs: readonly JobSummary[] = [];
  private error: string | undefined;
  private loaded = false;

  update(jobs: readonly JobSummary[]): void {
    this.jobs = jobs;
    this.error = undefined;
    this.loaded = true;
    this.changed.fire();
  }

  /** Nothing read yet (another profile, not looked at so far): "Loading jobs…". */
  reset(): void {
    this.jobs = [];
    this.error = undefined;
    this.loaded = false;
    this.changed.fire();
  }

  fail(message: string): void {
    this.error = message;
    this.loaded = true;
    this.changed.fire();
  }

  items(): JobItem[] {
    const now = Date.now();
    return this.jobs.map((job) => new JobItem(job, jobView(job, now)));
  }

  getTreeItem(item: JobItem | vscode.TreeItem): vscode.TreeItem {
    return item;
  }

  getChildren(): (JobItem | vscode.TreeItem)[] {
    if (this.error !== undefined) {
      const row = new vscode.TreeItem(vscode.l10n.t('Could not load jobs: {0}', this.error));
      row.iconPath = new vscode.ThemeIcon('warning');
      return [row];
    }
    if (!this.loaded) return [new vscode.TreeItem(vscode.l10n.t('Loading jobs…'))];
    // An empty list shows the view's welcome content (Create Job…, Run on GPU…).
    return this.items();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
