// Image preheats as a kind (kinds/kindDescriptor.ts): the Image Preheat view's rows from the preheat
// store (core/preheat/preheatState.ts) — per region's cache in cluster mode, preheated nodes against the
// desired count in node mode — the "ready" notification, and the error row for an account that has not
// applied for image preheat (docs/platform.md "Image preheat").
import * as vscode from 'vscode';
import type { PreheatTask } from '../../core/preheat/operations';
import { PREHEAT_STATE, preheatNotEnabled, preheatProgress, preheatsDoneIn, preheatStoppable } from '../../core/preheat/preheatState';
import { ConfigError } from '../../core/errors';
import { Commands, Views } from '../commandIds';
import type { KindDescriptor, KindRow } from '../kinds/kindDescriptor';
import { plain } from '../ui/notificationCenter';

export const PREHEAT_CONTEXT = { stoppable: 'preheat.stoppable', other: 'preheat' } as const;

function statusLabel(task: PreheatTask): string {
  switch (task.status) {
    case 'Pending':
      return vscode.l10n.t('Pending');
    case 'Running':
      return vscode.l10n.t('Running');
    case 'Paused':
      return vscode.l10n.t('Paused');
    case 'End':
      return vscode.l10n.t('Stopped');
    default:
      return vscode.l10n.t('Other');
  }
}

/** "regions cached: 2/3" or "nodes preheated: 1/4"; "ready" once done. */
export function progressText(task: PreheatTask): string {
  const progress = preheatProgress(task);
  if (progress.done) return vscode.l10n.t('ready');
  return progress.mode === 'cluster'
    ? vscode.l10n.t('regions cached: {0}/{1}', progress.completed, progress.regions)
    : vscode.l10n.t('nodes preheated: {0}/{1}', progress.available, progress.desired);
}

function cacheLabel(status: string): string {
  if (status === 'Completed') return vscode.l10n.t('preheated');
  if (status === 'Syncing') return vscode.l10n.t('preheating');
  return vscode.l10n.t('waiting');
}

export function preheatRow(task: PreheatTask): KindRow {
  const progress = preheatProgress(task);
  const images = task.services.map((service) => service.service_image).join(', ');
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(`${task.task_name} (${task.task_id})\n`);
  tooltip.appendText(vscode.l10n.t('Image: {0}', images) + '\n');
  tooltip.appendText(vscode.l10n.t('Status: {0} · {1}', statusLabel(task), progressText(task)) + '\n');
  for (const region of task.region_cache_info ?? []) tooltip.appendText(`${region.region}: ${cacheLabel(region.status)}\n`);
  if (progress.mode === 'node') tooltip.appendText(vscode.l10n.t('Nodes: {0} preheated, {1} in use, {2} wanted', progress.available, progress.used, progress.desired));
  return {
    id: `preheat-${task.task_id}`,
    label: task.task_name,
    description: `${statusLabel(task)} · ${progressText(task)} · ${images}`,
    icon: progress.done ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')) : task.status === 'Paused' ? new vscode.ThemeIcon('debug-pause') : new vscode.ThemeIcon('sync~spin'),
    tooltip,
    contextValue: preheatStoppable(task) ? PREHEAT_CONTEXT.stoppable : PREHEAT_CONTEXT.other,
  };
}

/** Not applied for: what it means and what to do, instead of the platform's bare code. */
export function preheatError(error: unknown): unknown {
  if (!preheatNotEnabled(error)) return undefined;
  return new ConfigError(
    vscode.l10n.t('Image preheat is not enabled for this account.'),
    vscode.l10n.t('Apply for image preheat in the platform console (it is still being rolled out), then refresh this view.'),
    { cause: error },
  );
}

export const PREHEAT_KIND: KindDescriptor<PreheatTask> = {
  state: PREHEAT_STATE as KindDescriptor<PreheatTask>['state'],
  viewId: Views.preheat,
  refreshCommand: Commands.preheatRefresh,
  what: () => vscode.l10n.t('image preheats'),
  emptyText: () => vscode.l10n.t('No image preheats. Preheat Image… caches an image before a task needs it.'),
  row: (task) => preheatRow(task),
  errorOf: preheatError,
  notices: (change, profile, own) =>
    preheatsDoneIn(change).map((task) => {
      const text = vscode.l10n.t('Image preheat "{0}" is ready.', plain(task.task_name));
      return { kind: 'preheatDone', severity: 'info', message: own ? text : `${plain(profile.label, 40)}: ${text}`, actions: [] };
    }),
};
