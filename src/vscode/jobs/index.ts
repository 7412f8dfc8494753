// The jobs area (batch jobs, Run on GPU): the Jobs view and the job notifications, both following the
// job store of the remote state (JOB_STATE in src/core/jobs/jobState.ts, listed on each profile's one poll
// loop); job commands, log terminals (core/jobs/polling.ts follows one job's logs) and Run on GPU.
// The NAS area supplies folder sync, the volume picker and "open outputs" (NasHooks, the port the
// composition root passes in).

import * as vscode from 'vscode';
import { errorText } from '../errors/errorText';
import { Commands } from '../commandIds';
import { registerCommandTable, type CommandEntry } from '../commands/commandTable';
import type { JobSummary } from '../../core/jobs/operations';
import { ClaimedEnds } from '../../core/jobs/jobState';
import { followJob } from '../../core/jobs/polling';
import type { FolderSyncer } from '../../core/jobs/runOnGpu';
import { jobView } from '../../core/jobs/status';
import { durationText } from '../ui/duration';
import { maskTaskEnv } from '../../core/tasks/envMask';
import { formatPoints } from '../../core/spend/units';
import { registerKind } from '../kinds/registerKind';
import { jobServiceNow, jobServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import type { NotificationCenter } from '../ui/notificationCenter';
import { createJobWizard } from './createJobWizard';
import { jobKind, phaseLabel } from './jobsTree';
import { JobTerminal } from '../runs/jobTerminal';
import { confirmStop, runOnGpuCommand, type RunHooks } from './runOnGpuCommand';
import type { MachineRunPort } from '../runs/machineRunPort';


export interface NasHooks {
  syncer: FolderSyncer;
  pickVolume(regionName: string, preferred?: number): Promise<number | undefined>;
  openOutputs(storageId: number, remoteDir: string): Promise<void>;
  /** A run wrote under `remoteDir`: the Explorer hears of it (the computenas file system). */
  announceFolder?(storageId: number, remoteDir: string): Promise<void>;
}

export interface JobsApi {
  /** The rows of the Jobs view as shown (label, description and the tooltip's text). */
  snapshot(): { id: number; label: string; description: string; tooltip: string }[];
  /** The Jobs view's message line (the shared empty and error lines of a kind's tree). */
  viewMessage(): string | undefined;
  /** Plain text written to the open job terminals. */
  terminalTexts(): string[][];
  /** Opens a following log terminal for a job (the Show Logs command). */
  showLogs(jobId: number): Promise<void>;
  /** The jobs of Run on GPU runs going on now (activities of the one rule for pausing, docs/money.md). */
  runningRuns(): readonly number[];
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerJobs(
  services: ExtensionServices,
  state: RemoteState,
  center: NotificationCenter,
  nas: NasHooks,
  machineRun: () => MachineRunPort | undefined = () => undefined,
  own: vscode.Disposable[] = [],
): { api: JobsApi; disposables: vscode.Disposable[] } {
  /** The active profile's jobs; a stop or a create wakes the store. */
  const jobService = jobServiceOf(services, () => state.wake());
  const terminals = new Set<JobTerminal>();
  /** Jobs whose end a Run on GPU terminal announces itself (one notification per end). */
  const claimedEnds = new ClaimedEnds();
  const runningRuns = new Set<number>();
  const jobs = registerKind(
    services,
    state,
    center,
    jobKind({
      claimedEnds,
      showLogs: (jobId) => showLogs(jobId),
      openOutputs: () => (storageId, remoteDir) => nas.openOutputs(storageId, remoteDir),
    }),
  );
  own.push(...jobs.disposables);
  const tree = jobs.tree;

  const jobOf = (target: unknown): JobSummary | undefined => tree.itemOf(target);
  /** A row's job, a job id, or one the user picks; a job id need not be listed (an API call). */
  const idOf = async (target: unknown): Promise<number | undefined> =>
    typeof target === 'number' ? target : (await tree.pick(target, vscode.l10n.t('Pick a job')))?.task_id;

  async function showLogs(jobId: number): Promise<void> {
    const job = jobOf(jobId);
    const name = job?.task_name ?? String(jobId);
    const abort = new AbortController();
    const terminal: JobTerminal = new JobTerminal({
      name: vscode.l10n.t('Job: {0}', name),
      onClose: () => {
        abort.abort();
        terminals.delete(terminal);
      },
      onInterrupt: async () => {
        await confirmStop(jobService, jobId, name, () => terminal.warn(vscode.l10n.t('Stopping job {0}…', jobId)));
      },
    });
    terminals.add(terminal);
    terminal.show();
    terminal.info(vscode.l10n.t('Following the logs of job {0} ({1}). Ctrl+C asks to stop the job.', name, jobId));
    let queuedShown = false;
    void followJob(
      jobServiceNow(services),
      jobId,
      {
        onLines: (lines, gap) => terminal.lines(lines, gap, vscode.l10n.t('… some lines are missing here: the platform dropped them, or too many came at once …')),
        onStatus: (detail) => {
          if (detail.schedule_status === 'Queued' && !queuedShown) {
            queuedShown = true;
            terminal.warn(vscode.l10n.t('Spot job is waiting in the queue for resources…'));
          }
        },
        onEnd: (detail) => {
          const ended = jobView(detail, Date.now());
          terminal.result(ended.phase === 'succeeded', vscode.l10n.t('Job {0}: {1} · {2} · billed {3}', jobId, phaseLabel(ended.phase), durationText(ended.elapsedSeconds), formatPoints(ended.billedPoints)));
        },
        onError: (error) => terminal.warn(vscode.l10n.t('Could not read the job: {0}', errorText(error))),
      },
      { signal: abort.signal },
    );
  }

  const hooks: RunHooks = {
    syncer: () => nas.syncer,
    pickVolume: (regionName, preferred) => nas.pickVolume(regionName, preferred),
    openOutputs: (storageId, remoteDir) => nas.openOutputs(storageId, remoteDir),
    announceFolder: async (storageId, remoteDir) => nas.announceFolder?.(storageId, remoteDir),
    terminals,
    runTerminals: new Map(),
    machineRun,
    onJobCreated: (jobId) => {
      runningRuns.add(jobId);
      claimedEnds.claim(jobId);
      state.wake();
    },
    onRunSettled: (jobId, announced) => {
      runningRuns.delete(jobId);
      if (!announced) claimedEnds.release(jobId);
      state.wake();
    },
  };

  const entries: CommandEntry<void>[] = [
    { id: Commands.jobsRefresh, doing: vscode.l10n.t('Load jobs'), create: () => () => tree.refresh() },
    {
      id: Commands.jobsCreate,
      doing: vscode.l10n.t('Create job'),
      create: () => async () => {
        const id = await createJobWizard(services, state);
        if (id === undefined) return;
        const follow = vscode.l10n.t('Follow Logs');
        if ((await vscode.window.showInformationMessage(vscode.l10n.t('Job {0} created.', id), follow)) === follow) await showLogs(id);
      },
    },
    { id: Commands.jobsRunOnGpu, doing: vscode.l10n.t('Run on GPU'), create: () => (uri?: unknown) => runOnGpuCommand(services, hooks, uri instanceof vscode.Uri ? uri : undefined, false) },
    { id: Commands.jobsRunAgain, doing: vscode.l10n.t('Run on GPU'), create: () => (uri?: unknown) => runOnGpuCommand(services, hooks, uri instanceof vscode.Uri ? uri : undefined, true) },
    {
      id: Commands.jobsShowLogs,
      doing: vscode.l10n.t('Show job logs'),
      create: () => async (target?: unknown) => {
        const id = await idOf(target);
        if (id !== undefined) await showLogs(id);
      },
    },
    {
      id: Commands.jobsStop,
      doing: vscode.l10n.t('Stop job'),
      create: () => async (target?: unknown) => {
        const id = await idOf(target);
        if (id === undefined) return;
        await confirmStop(jobService, id, jobOf(id)?.task_name ?? String(id));
      },
    },
    {
      id: Commands.jobsDetail,
      doing: vscode.l10n.t('Show job detail'),
      create: () => async (target?: unknown) => {
        const id = await idOf(target);
        if (id === undefined) return;
        await services.openReadOnlyDocument({
          key: `job/${id}`,
          title: vscode.l10n.t('Job {0}.json', id),
          language: 'json',
          // Env values can be secrets: masked here as in task detail; write-only passwords never come back.
          content: async () => JSON.stringify(maskTaskEnv(await jobService.detail(id)), null, 2),
        });
      },
    },
  ];

  const api: JobsApi = {
    snapshot: () =>
      tree.rows().map((item) => ({
        id: item.item.task_id,
        label: String(item.label),
        description: String(item.description ?? ''),
        tooltip: item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? ''),
      })),
    viewMessage: () => tree.message(),
    terminalTexts: () => [...terminals].map((terminal) => [...terminal.transcript]),
    showLogs,
    runningRuns: () => [...runningRuns],
  };
  own.push({ dispose: () => terminals.forEach((terminal) => terminal.dispose()) });
  own.push(...registerCommandTable(entries, undefined, services.reportError));
  return { api, disposables: own };
}
