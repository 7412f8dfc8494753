// A plan in words for the confirmation and the status line: its one-line summary and a line per change,
// cost per hour before → after (tasks), what Deploy would create and the most it can cost (jobs).

import * as vscode from 'vscode';
import { formatYuan, formatYuanPerHour } from '../../core/spend/units';
import type { JobPlan } from '../../core/specs/jobPlan';
import type { TaskPlan } from '../../core/specs/plan';
import { specsCore } from '../../core/specs/load';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';
import { deviceLabel, taskStatusLabel } from '../ui/format';

export function costText(value: number | undefined): string {
  return value === undefined ? vscode.l10n.t('price not listed') : formatYuanPerHour(value);
}

export function jobExistsText(plan: JobPlan): string {
  return plan.liveStatus
    ? vscode.l10n.t('This file already created job {0} ({1}). Jobs cannot be updated on the platform: Deploy needs a new job (remove "taskId"); the plan shows what it would be.', plan.taskId ?? '', taskStatusLabel(plan.liveStatus))
    : vscode.l10n.t('This file already created job {0}. Jobs cannot be updated on the platform: Deploy needs a new job (remove "taskId"); the plan shows what it would be.', plan.taskId ?? '');
}

/** A job plan's summary line and its cost/stock/notes lines, localized. */
export function summarizeJob(plan: JobPlan): { summary: string; lines: string[] } {
  const mode = plan.spot ? vscode.l10n.t('Spot') : vscode.l10n.t('on demand');
  const summary = vscode.l10n.t(
    'Create job "{0}": {1}, {2} at once, {3}, on {4} in {5}, timeout {6}.',
    plan.jobName,
    counted(plan.body.points, 'completion'),
    counted(plan.pods, 'pod'),
    mode,
    deviceLabel(plan.offer.device),
    plan.offer.region.region_name,
    durationText(plan.body.job_support.timeout_sec),
  );
  const lines: string[] = [];
  if (plan.yuanPerHour === undefined) lines.push(vscode.l10n.t('Cost: price not listed for this resource.'));
  else {
    lines.push(vscode.l10n.t('Cost: {0} while {1} run ({2} per pod); at most {3} if every pod runs until the timeout.', formatYuanPerHour(plan.yuanPerHour), counted(plan.pods, 'pod'), formatYuanPerHour(plan.podYuanPerHour ?? 0), formatYuan(plan.capYuan ?? 0)));
    if (plan.expectedYuan !== undefined) lines.push(vscode.l10n.t('Expected about {0} from the estimated run time.', formatYuan(plan.expectedYuan)));
  }
  lines.push(plan.inventory > 0 ? vscode.l10n.t('Stock: {0} in {1}', plan.inventory, plan.offer.region.region_name) : plan.spot ? vscode.l10n.t('Sold out: a Spot job waits in the queue for resources.') : vscode.l10n.t('Sold out: the job may stay Pending.'));
  if (plan.action === 'exists') lines.push(jobExistsText(plan));
  if (plan.missingSecrets.length > 0) lines.push(vscode.l10n.t('Set these secrets before deploying: {0} (command "Set Spec Secret…").', plan.missingSecrets.map(specsCore().refText).join(', ')));
  return { summary, lines };
}

function show(value: unknown): string {
  if (value === undefined || value === null) return vscode.l10n.t('(none)');
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The live side's header: "Live task 12 (Running)", the status in words (never the platform's "End"). */
export function liveHeader(plan: Pick<TaskPlan, 'taskId' | 'liveStatus'>): string {
  return vscode.l10n.t('Live task {0} ({1})', plan.taskId ?? '', plan.liveStatus === undefined ? '—' : taskStatusLabel(plan.liveStatus));
}

/** The summary line and one line per change/reset, localized. */
export function summarize(plan: TaskPlan): { summary: string; lines: string[] } {
  if (plan.action === 'create') {
    return { summary: vscode.l10n.t('Create "{0}": {1} of {2} in {3}, {4}.', plan.taskName, counted(plan.body.points, 'node'), deviceLabel(plan.offer.device), plan.offer.region.region_name, costText(plan.costAfter)), lines: [] };
  }
  if (plan.changes.length === 0) return { summary: vscode.l10n.t('No difference: task {0} matches the file ({1}).', plan.taskId ?? '', costText(plan.costAfter)), lines: [] };
  const resets = plan.changes.filter((change) => change.kind === 'reset').length;
  const summary = vscode.l10n.t('Plan for task {0}: {1}, {2}; cost {3} → {4}.', plan.taskId ?? '', counted(plan.changes.length - resets, 'change'), counted(resets, 'reset'), costText(plan.costBefore), costText(plan.costAfter));
  const lines = plan.changes.map((change) =>
    change.kind === 'reset'
      ? vscode.l10n.t('RESET {0}: {1} → cleared (the file leaves it out)', change.path, show(change.before))
      : change.kind === 'add'
        ? vscode.l10n.t('ADD {0}: {1}', change.path, show(change.after))
        : vscode.l10n.t('CHANGE {0}: {1} → {2}', change.path, show(change.before), show(change.after)),
  );
  return { summary, lines };
}

