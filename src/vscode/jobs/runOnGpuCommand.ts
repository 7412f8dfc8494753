// Run on GPU… (editor title, Explorer context menu, palette) and Run Again: sync the workspace folder
// (or the chosen folder) to a NAS volume, run the command there as a batch job, stream its logs into a
// terminal, and tell the exit status, time and cost at the end. Settings live in .compute/run.json.
// Run Again runs what run.json says, from wherever it is started (palette, notification): its folder,
// never the active editor's file. run.json is workspace content: in Restricted Mode nothing runs, and
// the confirmation shows every value it decides (docs/security.md).

import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorText } from '../errors/errorText';
import { formatBytesShort } from '../runs/format';
import { RUN_CONFIG_PATH, settingsFor, type RunConfig, type RunFile } from '../../core/jobs/runConfig';
import { findRunResource, runOnGpu, type FolderSyncer } from '../../core/jobs/runOnGpu';
import { JOB_TEMPLATES } from '../../core/jobs/templates';
import { realPathInside } from '../../core/localLinks';
import { safeFileName } from '../../core/safeFileName';
import { formatPoints } from '../../core/spend/units';
import type { JobService } from '../../core/jobs/jobService';
import { jobServiceOf, resourceServiceOf, runServicesNow } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { Commands } from '../commandIds';
import { confirmJobCost, resourceSteps, type ResourceChoice } from './jobInputs';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { JobTerminal } from '../runs/jobTerminal';
import { localFolders, resolveTarget, type RunTarget } from '../runs/runTarget';
import { runFactLines } from './runReview';
import { readRunFile, writeRunFile } from './runFile';
import { defaultCommand, pickRunTarget, runOnMachine } from './runOnMachine';
import type { MachineRunPort } from '../runs/machineRunPort';
import { Refusal } from '../errors/refusal';
import { counted } from '../ui/counts';
import { deviceLabel } from '../ui/format';
import { durationText } from '../ui/duration';

export interface RunHooks {
  syncer(): FolderSyncer | undefined;
  /** An Active NAS volume in the GPU's region: run.json's when it is one, else the user's pick (the NAS area's). */
  pickVolume(regionName: string, preferred?: number): Promise<number | undefined>;
  openOutputs(storageId: number, remoteDir: string): Promise<void>;
  /** The run's folder on the volume changed (synced inputs, the job's outputs): tell the Explorer. */
  announceFolder(storageId: number, remoteDir: string): Promise<void>;
  terminals: Set<JobTerminal>;
  /** The terminal of each run folder's last run (taken again once that run is over). */
  runTerminals: Map<string, JobTerminal>;
  /** A run created its job: the store looks again, and leaves the job's end to the run's own summary. */
  onJobCreated(jobId: number): void;
  /** The run is over: `announced` when its summary was shown (otherwise the store announces the end). */
  onRunSettled(jobId: number, announced: boolean): void;
  /** Rented machines as a target (the machine connections area's port; undefined when it is not up). */
  machineRun?(): MachineRunPort | undefined;
}

/**
 * Run Again's run: the run.json of the folder it was started on (a notification's button passes it),
 * else of the active editor's local folder, else of the first local folder that has one; the synced
 * folder is run.json's own. Undefined when no folder has one.
 */
async function savedRun(uri: vscode.Uri | undefined): Promise<{ target: RunTarget; file: RunFile } | undefined> {
  const folders = localFolders();
  const of = (candidate: vscode.Uri | undefined) => (candidate?.scheme === 'file' ? folders.find((folder) => folder.uri.toString() === vscode.workspace.getWorkspaceFolder(candidate)?.uri.toString()) : undefined);
  const started = of(uri);
  const editorFolder = of(vscode.window.activeTextEditor?.document.uri);
  const order = uri ? (started ? [started] : []) : [...(editorFolder ? [editorFolder] : []), ...folders.filter((folder) => folder !== editorFolder)];
  for (const folder of order) {
    const file = await readRunFile(folder.uri);
    if (file) return { target: { root: folder.uri, folder: file.config.folder === '' ? folder.uri : vscode.Uri.joinPath(folder.uri, ...file.config.folder.split('/')) }, file };
  }
  return undefined;
}

/** Asks what run.json does not say yet; undefined when the user backs out. */
async function askConfig(services: ExtensionServices, hooks: RunHooks, target: RunTarget, previous: RunConfig | undefined): Promise<RunConfig | undefined> {
  // One flow (ui/multiStepInput): command, resource, billing mode, timeout; the last run's answers come back.
  const title = vscode.l10n.t('Run on GPU');
  const at = (step: number) => ({ title, step, totalSteps: 4 });
  const MAX_TIMEOUT = 7 * 86_400;
  const state: { command: string; timeout: string; choice?: ResourceChoice; preferred?: { deviceName: string; region: string }; spot?: boolean } = {
    command: previous?.command ?? defaultCommand(target),
    timeout: String(previous?.timeoutSec ?? 3600),
    ...(previous ? { preferred: previous.resource, spot: previous.spot } : {}),
  };
  const askTimeout: Step = async (input) => {
    state.timeout = await input.showInputBox({
      ...at(4),
      value: state.timeout,
      prompt: vscode.l10n.t('Timeout: the job is stopped after (seconds)'),
      validate: (text) => (/^\d{1,7}$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= MAX_TIMEOUT ? undefined : vscode.l10n.t('A whole number of seconds from 1 to {0}', MAX_TIMEOUT)),
    });
  };
  const askResource = resourceSteps(resourceServiceOf(services), state, at, 2, askTimeout);
  const finished = await MultiStepInput.run(async (input) => {
    state.command = await input.showInputBox({ ...at(1), value: state.command, prompt: vscode.l10n.t('Command: runs in the synced folder on the GPU'), validate: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a command') : undefined) });
    return askResource;
  });
  const choice = state.choice;
  if (!finished || !choice) return undefined;
  const command = state.command;
  const timeoutSec = Number(state.timeout.trim());
  // A volume mounts only in its own region: run.json's volume is kept only when it is in the GPU's region.
  const storageId = await hooks.pickVolume(choice.region.region_name, previous?.volume.storageId);
  if (storageId === undefined) return undefined;
  // The run folder on the volume and the job's name: non-ASCII stays (two folders must not share one).
  const folderName = safeFileName(path.basename(target.folder.fsPath), 'project', 40);
  const pytorch = JOB_TEMPLATES[0];
  return {
    version: 1,
    name: folderName,
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
  const retry = () => vscode.commands.executeCommand(again ? Commands.jobsRunAgain : Commands.jobsRunOnGpu, ...(uri ? [uri] : []));
  if (!services.trust.allows(again ? vscode.l10n.t('Run Again on GPU') : vscode.l10n.t('Run on GPU'), retry)) return;
  const profile = await services.requireProfile();
  if (!profile) return;
  let target: RunTarget | undefined;
  let config: RunConfig | undefined;
  let savedFile: RunFile | undefined;
  if (again) {
    const saved = await savedRun(uri);
    if (!saved) {
      const runOnGpu = vscode.l10n.t('Run on GPU…');
      const answer = await vscode.window.showInformationMessage(vscode.l10n.t('No saved run in this workspace ({0}): Run on GPU… asks what to run and saves it.', RUN_CONFIG_PATH), runOnGpu);
      if (answer === runOnGpu) await vscode.commands.executeCommand(Commands.jobsRunOnGpu);
      return;
    }
    target = saved.target;
    savedFile = saved.file;
    if (saved.file.kind === 'job') config = saved.file.config;
  } else {
    target = resolveTarget(uri);
    if (!target) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: Run on GPU syncs a workspace folder on this machine to a volume.'));
      return;
    }
  }
  // The synced folder (run.json's, or the one picked) must be inside the workspace folder on disk: a link
  // committed to a cloned repository (`src -> ~`) would send what it points at (core/localLinks.ts).
  if ((await realPathInside([target.root.fsPath], target.folder.fsPath).catch(() => undefined)) === undefined) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0} is not a folder inside {1} on this disk (a symbolic link leads out of it, or it is missing): Run on GPU syncs only folders inside the workspace folder. Nothing was sent.', vscode.workspace.asRelativePath(target.folder, true), target.root.fsPath),
    );
    return;
  }
  // A rented machine as the target: run.json's (Run Again), or picked when the profile has Serving ones.
  const machines = hooks.machineRun?.();
  const machineHooks = { terminals: hooks.terminals, runTerminals: hooks.runTerminals, runAgain: (root: vscode.Uri) => runOnGpuCommand(services, hooks, root, true).catch((error: unknown) => services.reportError(error, vscode.l10n.t('Run on GPU'))) };
  if (savedFile?.kind === 'machine') {
    if (!machines) throw new Refusal(vscode.l10n.t('{0} runs on a rented machine, but machine connections are not available in this window.', RUN_CONFIG_PATH));
    return runOnMachine(services, machines, machineHooks, target, { saved: savedFile.config, again: true });
  }
  let previous: RunFile | undefined;
  if (!again) {
    previous = await readRunFile(target.root);
    const serving = machines ? await machines.serving(false) : [];
    if (machines && serving.length > 0) {
      const where = await pickRunTarget(serving, previous?.kind === 'machine' ? previous.config.machine.deviceId : undefined);
      if (where === undefined) return;
      const savedMachine = settingsFor(previous, 'machine');
      if (where !== 'job') return runOnMachine(services, machines, machineHooks, target, { picked: where, ...(savedMachine ? { saved: savedMachine } : {}), again: false });
    }
  }
  const syncer = hooks.syncer();
  if (!syncer) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Run on GPU needs NAS volume sync, which is not available in this build.'));
    return;
  }
  config ??= await askConfig(services, hooks, target, settingsFor(previous, 'job'));
  if (!config) return;
  const run = runServicesNow(services);
  const offer = await findRunResource(run.resources, config);
  const confirmed = await confirmJobCost(
    {
      name: config.name,
      resourceLabel: `${deviceLabel(offer.device)} · ${offer.region.region_name}`,
      pointsPerSecond: offer.pointsPerSecond,
      spot: config.spot,
      completions: config.completions,
      parallelism: config.parallelism,
      timeoutSec: config.timeoutSec,
      estimatedSec: config.estimatedSec,
      profile: profile.label,
    },
    runFactLines(config, profile, target),
  );
  if (!confirmed) return;
  await writeRunFile(target.root, config);

  const abort = new AbortController();
  let jobId: number | undefined;
  const runKey = target.folder.toString();
  const handlers = {
    onClose: () => {
      abort.abort();
      hooks.terminals.delete(terminal);
      if (hooks.runTerminals.get(runKey) === terminal) hooks.runTerminals.delete(runKey);
    },
    onInterrupt: async () => {
      if (jobId === undefined) {
        abort.abort();
        terminal.warn(vscode.l10n.t('Cancelled before the job was created.'));
        return;
      }
      await confirmStop(jobServiceOf(services), jobId, config.name, () => terminal.warn(vscode.l10n.t('Stopping job {0}…', jobId ?? 0)));
    },
  };
  // The folder's last run is over: its terminal takes this run (one terminal per run folder, not per run).
  const finished = hooks.runTerminals.get(runKey);
  const reused = finished !== undefined && finished.idle && !finished.isClosed;
  const terminal: JobTerminal = reused ? finished.reuse(handlers) : new JobTerminal({ name: vscode.l10n.t('GPU: {0}', config.name), ...handlers });
  hooks.terminals.add(terminal);
  hooks.runTerminals.set(runKey, terminal);
  terminal.show();
  if (reused) terminal.info(vscode.l10n.t('──── New run of {0} ────', config.name));
  terminal.info(vscode.l10n.t('Syncing {0} to volume {1}:{2}…', vscode.workspace.asRelativePath(target.folder, true), config.volume.storageId, config.volume.remoteDir));
  const started = Date.now();
  try {
    const outcome = await runOnGpu(
      run,
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
        onLines: (lines, gap) => terminal.lines(lines, gap, vscode.l10n.t('… some lines are missing here: the platform dropped them, or too many came at once …')),
      },
    );
    const ok = outcome.view.phase === 'succeeded';
    const summary = vscode.l10n.t(
      'Job {0} {1} · exit code {2} · {3} · {4}',
      outcome.jobId,
      ok ? vscode.l10n.t('succeeded') : outcome.view.phase === 'stopped' ? vscode.l10n.t('was stopped') : vscode.l10n.t('failed'),
      outcome.exitCode ?? '—',
      durationText(outcome.view.elapsedSeconds || (Date.now() - started) / 1000),
      formatPoints(outcome.costPoints),
    );
    terminal.result(ok, summary);
    hooks.onRunSettled(outcome.jobId, true);
    void hooks.announceFolder(config.volume.storageId, config.volume.remoteDir).catch(() => undefined);
    const openOutputs = vscode.l10n.t('Open Outputs');
    const runAgain = vscode.l10n.t('Run Again');
    // eslint-disable-next-line no-restricted-syntax -- an outcome notice, not an error report: moves onto the notification center with the job kind (issue 28 step 2)
    const show = ok ? vscode.window.showInformationMessage : vscode.window.showErrorMessage;
    void show(summary, openOutputs, runAgain).then((action) => {
      if (action === openOutputs) void hooks.openOutputs(config.volume.storageId, config.volume.remoteDir);
      if (action === runAgain) void runOnGpuCommand(services, hooks, target.root, true).catch((error: unknown) => services.reportError(error, vscode.l10n.t('Run on GPU')));
    });
  } catch (error) {
    if (jobId !== undefined) hooks.onRunSettled(jobId, false);
    if (abort.signal.aborted) return;
    terminal.result(false, vscode.l10n.t('Run on GPU failed: {0}', errorText(error)));
    throw error;
  } finally {
    terminal.idle = true;
  }
}

/** Ctrl+C / Stop: modal, Keep Running is the default. */
export async function confirmStop(jobs: JobService, jobId: number, name: string, onStopping?: () => void): Promise<boolean> {
  const stop = vscode.l10n.t('Stop Job');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Stop job "{0}" ({1})?', name, jobId),
    { modal: true, detail: vscode.l10n.t('Its pods are killed now and billing stops. A job cannot be resumed; outputs not yet written to the volume are lost.') },
    stop,
  );
  if (answer !== stop) return false;
  onStopping?.();
  await jobs.stop(jobId);
  return true;
}
