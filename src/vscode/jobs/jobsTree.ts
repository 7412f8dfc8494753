// Batch jobs as a kind (kinds/kindDescriptor.ts): the Jobs view's rows from the job store of the remote
// state (core/jobs/jobState.ts, listed on the profile's one poll loop), each with its phase, pods, elapsed
// time and what it has cost; a job's end as a notification through the one NotificationCenter.

import * as vscode from 'vscode';
import { jobsEndedIn, JOB_STATE, type ClaimedEnds } from '../../core/jobs/jobState';
import type { JobSummary } from '../../core/jobs/operations';
import { jobView, type JobPhase } from '../../core/jobs/status';
import { formatPoints } from '../../core/spend/units';
import { Commands, Views } from '../commandIds';
import type { KindDescriptor, KindNotice, KindRow } from '../kinds/kindDescriptor';
import type { Profile } from '../services';
import { taskStatusLabel } from '../ui/format';
import { durationText } from '../ui/duration';
import { plain } from '../ui/notificationCenter';

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

/** The row of one job: phase, pods, elapsed time and cost; the tooltip in full. */
export function jobRow(job: JobSummary, now: number): KindRow {
  const view = jobView(job, now);
  const pods = vscode.l10n.t('{0}/{1} succeeded', view.succeeded, view.completions) + (view.failed > 0 ? ` · ${vscode.l10n.t('{0} failed', view.failed)}` : '');
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(`${job.task_name} (${job.task_id})\n`);
  tooltip.appendText(vscode.l10n.t('Status: {0} · execution: {1}', taskStatusLabel(job.status), executionLabel(view.execution)) + '\n');
  if (view.spot) tooltip.appendText(vscode.l10n.t('Spot: {0}', scheduleLabel(view.schedule)) + '\n');
  tooltip.appendText(vscode.l10n.t('Pods: {0} succeeded, {1} failed, {2} active; {3} at once', view.succeeded, view.failed, view.active, view.parallelism) + '\n');
  tooltip.appendText(vscode.l10n.t('Elapsed {0} · billed {1}', durationText(view.elapsedSeconds), formatPoints(view.billedPoints)));
  return {
    id: `job-${job.task_id}`,
    label: job.task_name,
    description: `${phaseLabel(view.phase)} · ${pods} · ${durationText(view.elapsedSeconds)} · ${formatPoints(view.billedPoints)}`,
    icon: ICONS[view.phase],
    tooltip,
    contextValue: view.ended ? JOB_CONTEXT.ended : JOB_CONTEXT.live,
  };
}

/** What a job's end notification can offer besides the text. */
export interface JobNoticeHooks {
  /** Ends a Run on GPU terminal announces itself (one notification per end). */
  claimedEnds: ClaimedEnds;
  showLogs(jobId: number): Promise<void>;
  /** Undefined while no NAS area can open a volume's files. */
  openOutputs(): ((storageId: number, remoteDir: string) => Promise<void>) | undefined;
}

/**
 * A job that ended (completed, failed or stopped) since the last poll: its phase, time and cost. Logs and
 * outputs are read through the active profile's client: offered for its jobs only.
 */
function jobEndNotice(job: JobSummary, profile: Profile, own: boolean, hooks: JobNoticeHooks): KindNotice {
  const ended = jobView(job, Date.now());
  const text = vscode.l10n.t('Job "{0}" {1} after {2} · billed {3}', plain(job.task_name), phaseLabel(ended.phase), durationText(ended.elapsedSeconds), formatPoints(ended.billedPoints));
  const actions: KindNotice['actions'] = [];
  const mount = job.services[0]?.nas_storage_config?.[0];
  const openOutputs = hooks.openOutputs();
  if (own) actions.push({ title: vscode.l10n.t('Open Logs'), run: () => hooks.showLogs(job.task_id) });
  if (own && mount && openOutputs) actions.push({ title: vscode.l10n.t('Open Outputs'), run: () => openOutputs(mount.storage_id, '/') });
  return { kind: 'jobEnded', severity: ended.phase === 'failed' ? 'error' : 'info', message: own ? text : `${plain(profile.label, 40)}: ${text}`, actions };
}

/** The Jobs view and the job-end notifications as one descriptor. */
export function jobKind(hooks: JobNoticeHooks): KindDescriptor<JobSummary> {
  return {
    state: JOB_STATE as KindDescriptor<JobSummary>['state'],
    viewId: Views.jobs,
    refreshCommand: Commands.jobsRefresh,
    what: () => vscode.l10n.t('jobs'),
    // An empty list shows the view's welcome content (Create Job…, Run on GPU…).
    emptyText: () => undefined,
    row: jobRow,
    // A job seen live is announced once when it is next seen ended; one that started and ended between
    // two polls too (never on a profile's first look, which only learns what exists).
    notices: (change, profile, own) => hooks.claimedEnds.unclaimed(jobsEndedIn(change)).map((job) => jobEndNotice(job, profile, own, hooks)),
  };
}
