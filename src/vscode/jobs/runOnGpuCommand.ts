// Run on GPU… (editor title, Explorer context menu, palette) and Run Again: sync the workspace folder
// (or the chosen folder) to a NAS volume, run the command there as a batch job, stream its logs into a
// terminal, and tell the exit status, time and cost at the end. Settings live in .compute/run.json.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatElapsed } from '../../core/jobs/status';
import { formatBytesShort } from './format';
import { parseRunConfig, RUN_CONFIG_PATH, serializeRunConfig, type RunConfig } from '../../core/jobs/runConfig';
import { findRunResource, runOnGpu, type FolderSyncer } from '../../core/jobs/runOnGpu';
import { JOB_TEMPLATES } from '../../core/jobs/templates';
import { formatPoints } from '../../core/spend/units';
import type { ExtensionServices } from '../services';
import { askSeconds, confirmJobCost, pickResource } from './jobInputs';
import { JobTerminal } from './jobTerminal';
import { counted } from '../ui/counts';
import { deviceLabel } from '../ui/format';

export interface RunTarget {
  /** Workspace folder root: run.json lives here. */
  root: vscode.Uri;
  /** Folder synced (root or a sub-folder). */
  folder: vscode.Uri;
  /** The file to run, when a file was chosen. */
  file?: vscode.Uri;
}

export interface RunHooks {
  syncer(): FolderSyncer | undefined;
  /** Asks for a NAS volume when run.json has none (the NAS area provides the list at merge). */
  pickVolume(): Promise<number | undefined>;
  openOutputs(storageId: number, remoteDir: string): Promise<void>;
  terminals: Set<JobTerminal>;
  /** A run created its job: the store looks again, and leaves the job's end to the run's own summary. */
  onJobCreated(jobId: number): void;
  /** The run is over: `announced` when its summary was shown (otherwise the store announces the end). */
  onRunSettled(jobId: number, announced: boolean): void;
}

export function resolveTarget(uri: vscode.Uri | undefined): RunTarget | undefined {
  const chosen = uri ?? vscode.window.activeTextEditor?.document.uri;
  const folder = chosen ? vscode.workspace.getWorkspaceFolder(chosen) : vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  if (!chosen || chosen.toString() === folder.uri.toString()) return { root: folder.uri, folder: folder.uri };
  const isFile = path.extname(chosen.fsPath) !== '';
  return isFile ? { root: folder.uri, folder: folder.uri, file: chosen } : { root: folder.uri, folder: chosen };
}

async function readConfig(root: vscode.Uri): Promise<RunConfig | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, RUN_CONFIG_PATH));
    return parseRunConfig(new TextDecoder().decode(bytes));
  } catch (error) {
    if (error instanceof vscode.FileSystemError) return undefined;
    throw error;
  }
}

async function writeConfig(root: vscode.Uri, config: RunConfig): Promise<void> {
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, '.compute'));
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, RUN_CONFIG_PATH), new TextEncoder().encode(serializeRunConfig(config)));
}

function defaultCommand(target: RunTarget): string {
  // eslint-disable-next-line no-restricted-syntax -- a shell command, not prose
  if (!target.file) return 'python train.py';
  const relative = path.relative(target.folder.fsPath, target.file.fsPath).split(path.sep).join('/');
  return target.file.fsPath.endsWith('.py') ? `python ${relative}` : `sh ${relative}`;
}

/** Asks what run.json does not say yet; undefined when the user backs out. */
async function askConfig(services: ExtensionServices, hooks: RunHooks, target: RunTarget, previous: RunConfig | undefined): Promise<RunConfig | undefined> {
  const command = await vscode.window.showInputBox({
    title: vscode.l10n.t('Run on GPU: command'),
    prompt: vscode.l10n.t('Runs in the synced folder on the GPU'),
    value: previous?.command ?? defaultCommand(target),
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a command') : undefined),
  });
  if (command === undefined) return undefined;
  const choice = await pickResource(services.computeClient(), previous?.resource);
  if (!choice) return undefined;
  const timeoutSec = await askSeconds(vscode.l10n.t('Timeout: the job is stopped after'), previous?.timeoutSec ?? 3600, 7 * 86_400);
  if (timeoutSec === undefined) return undefined;
  const storageId = previous?.volume.storageId ?? (await hooks.pickVolume());
  if (storageId === undefined) return undefined;
  const folderName = path.basename(target.folder.fsPath).replace(/[^A-Za-z0-9._-]+/g, '-') || 'project';
  const pytorch = JOB_TEMPLATES[0];
  return {
    version: 1,
    name: folderName.slice(0, 40),
    command: command.trim(),
    image: previous?.image ?? pytorch?.image ?? 'pytorch/pytorch:latest',
    folder: path.relative(target.root.fsPath, target.folder.fsPath).split(path.sep).join('/'),
    resource: { deviceName: choice.device.device_name, region: choice.region.region },
    spot: choice.spot,
    estimatedSec: Math.max(1, Math.min(previous?.estimatedSec ?? Math.floor(timeoutSec / 2), timeoutSec - 1)),
    timeoutSec,
    completions: previous?.completions ?? 1,
    parallelism: previous?.parallelism ?? 1,
    indexed: previous?.indexed ?? false,
    retries: previous?.retries ?? 0,
    env: previous?.env ?? [{ name: 'PYTHONUNBUFFERED', value: '1' }],
    volume: { storageId, targetDir: previous?.volume.targetDir ?? '/mnt/work', remoteDir: previous?.volume.remoteDir ?? `/runs/${folderName}` },
  };
}

export async function runOnGpuCommand(services: ExtensionServices, hooks: RunHooks, uri: vscode.Uri | undefined, again: boolean): Promise<void> {
  const profile = await services.requireProfile();
  if (!profile) return;
  const target = resolveTarget(uri);
  if (!target) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: Run on GPU syncs a workspace folder to a volume.'));
    return;
  }
  const syncer = hooks.syncer();
  if (!syncer) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Run on GPU needs NAS volume sync, which is not available in this build.'));
    return;
  }
  const saved = await readConfig(target.root);
  const config = again && saved ? saved : await askConfig(services, hooks, target, saved);
  if (!config) return;
  const client = services.computeClient();
  const offer = await findRunResource(client, config);
  const confirmed = await confirmJobCost({
    name: config.name,
    resourceLabel: `${deviceLabel(offer.device)} · ${offer.region.region_name}`,
    pointsPerSecond: offer.pointsPerSecond,
    spot: config.spot,
    completions: config.completions,
    parallelism: config.parallelism,
    timeoutSec: config.timeoutSec,
    estimatedSec: config.estimatedSec,
    profile: profile.label,
  });
  if (!confirmed) return;
  await writeConfig(target.root, config);

  const abort = new AbortController();
  let jobId: number | undefined;
  const terminal: JobTerminal = new JobTerminal({
    name: vscode.l10n.t('GPU: {0}', config.name),
    onClose: () => {
      abort.abort();
      hooks.terminals.delete(terminal);
    },
    onInterrupt: async () => {
      if (jobId === undefined) {
        abort.abort();
        terminal.warn(vscode.l10n.t('Cancelled before the job was created.'));
        return;
      }
      await confirmStop(services, jobId, config.name, () => terminal.warn(vscode.l10n.t('Stopping job {0}…', jobId ?? 0)));
    },
  });
  hooks.terminals.add(terminal);
  terminal.show();
  terminal.info(vscode.l10n.t('Syncing {0} to volume {1}:{2}…', vscode.workspace.asRelativePath(target.folder, true), config.volume.storageId, config.volume.remoteDir));
  const started = Date.now();
  try {
    const outcome = await runOnGpu(
      client,
      syncer,
      { config, localDir: target.folder.fsPath, jobName: `${config.name}-${new Date().toISOString().slice(5, 19).replace(/[-:T]/g, '')}`, signal: abort.signal },
      {
        onSynced: (sync) => terminal.info(vscode.l10n.t('Synced: {0} sent ({1}), {2} unchanged', counted(sync.sent, 'file'), formatBytesShort(sync.bytes), sync.skipped.toLocaleString(vscode.env.language))),
        onCreated: (id) => {
          jobId = id;
          hooks.onJobCreated(id);
          terminal.info(vscode.l10n.t('Job {0} created. Press Ctrl+C to stop it.', id));
        },
        onStatus: (view) => {
          if (view.phase === 'queued') terminal.warn(vscode.l10n.t('Spot job is waiting in the queue for resources…'));
        },
        onLines: (lines, gap) => terminal.lines(lines, gap, vscode.l10n.t('… some lines were dropped by the platform before they could be read …')),
      },
    );
    const ok = outcome.view.phase === 'succeeded';
    const summary = vscode.l10n.t(
      'Job {0} {1} · exit code {2} · {3} · {4}',
      outcome.jobId,
      ok ? vscode.l10n.t('succeeded') : outcome.view.phase === 'stopped' ? vscode.l10n.t('was stopped') : vscode.l10n.t('failed'),
      outcome.exitCode ?? '—',
      formatElapsed(outcome.view.elapsedSeconds || (Date.now() - started) / 1000),
      formatPoints(outcome.costPoints),
    );
    terminal.result(ok, summary);
    hooks.onRunSettled(outcome.jobId, true);
    const openOutputs = vscode.l10n.t('Open Outputs');
    const runAgain = vscode.l10n.t('Run Again');
    const show = ok ? vscode.window.showInformationMessage : vscode.window.showErrorMessage;
    void show(summary, openOutputs, runAgain).then((action) => {
      if (action === openOutputs) void hooks.openOutputs(config.volume.storageId, config.volume.remoteDir);
      if (action === runAgain) void runOnGpuCommand(services, hooks, target.file ?? target.folder, true).catch((error: unknown) => services.reportError(error, vscode.l10n.t('Run on GPU')));
    });
  } catch (error) {
    if (jobId !== undefined) hooks.onRunSettled(jobId, false);
    if (abort.signal.aborted) return;
    terminal.result(false, vscode.l10n.t('Run on GPU failed: {0}', error instanceof Error ? error.message : String(error)));
    throw error;
  }
}

/** Ctrl+C / Stop: modal, Keep Running is the default. */
export async function confirmStop(services: ExtensionServices, jobId: number, name: string, onStopping?: () => void): Promise<boolean> {
  const stop = vscode.l10n.t('Stop Job');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Stop job "{0}" ({1})?', name, jobId),
    { modal: true, detail: vscode.l10n.t('Its pods are killed now and billing stops. A job cannot be resumed; outputs not yet written to the volume are lost.') },
    stop,
  );
  if (answer !== stop) return false;
  onStopping?.();
  await services.computeClient().call('job.stop', { task_id: jobId });
  return true;
}
