// The jobs area (batch jobs, Run on GPU): the Jobs view and the job notifications, both following the
// job store of the remote state (JOB_STATE in src/core/jobs/jobState.ts, listed on each profile's one poll
// loop); job commands, log terminals (core/jobs/polling.ts follows one job's logs) and Run on GPU.
// The NAS area supplies folder sync, the volume picker and "open outputs" through setNasHooks (wired
// by the composition root once both areas are in).

import * as vscode from 'vscode';
import { Commands, Views } from '../commandIds';
import { registerCommandTable, type CommandEntry } from '../commands/commandTable';
import type { JobSummary } from '../../core/jobs/operations';
import { ClaimedEnds, jobsEndedIn, JOB_STATE } from '../../core/jobs/jobState';
import { followJob } from '../../core/jobs/polling';
import type { FolderSyncer } from '../../core/jobs/runOnGpu';
import { formatElapsed, jobView } from '../../core/jobs/status';
import { maskTaskEnv } from '../../core/tasks/envMask';
import { formatPoints } from '../../core/spend/units';
import { jobServiceOf } from '../client/computeServices';
import type { ExtensionServices, Profile } from '../services';
import type { RemoteState } from '../state/index';
import { createJobWizard } from './createJobWizard';
import { JobItem, JobsTree, phaseLabel } from './jobsTree';
import { JobTerminal } from './jobTerminal';
import { confirmStop, runOnGpuCommand, type RunHooks } from './runOnGpuCommand';

export { templateStep } from './createJobWizard';

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
  /** Plain text written to the open job terminals. */
  terminalTexts(): string[][];
  setNasHooks(hooks: NasHooks): void;
  /** Opens a following log terminal for a job (the Show Logs command). */
  showLogs(jobId: number): Promise<void>;
}

type Target = JobItem | number | undefined;

export function registerJobs(services: ExtensionServices, state: RemoteState): { api: JobsApi; disposables: vscode.Disposable[] } {
  /** The active profile's jobs; a stop or a create wakes the store. */
  const jobs = jobServiceOf(services, () => state.wake());
  const jobsNow = (): readonly JobSummary[] => state.store(JOB_STATE)?.items ?? [];
  const isActive = (profile: Profile): boolean => profile.id === services.profiles.active?.id;
  const tree = new JobsTree();
  const view = vscode.window.createTreeView(Views.jobs, { treeDataProvider: tree });
  const terminals = new Set<JobTerminal>();
  let nas: NasHooks | undefined;

  const jobOf = (target: Target): JobSummary | undefined => {
    if (target instanceof JobItem) return target.job;
    if (typeof target === 'number') return jobsNow().find((job) => job.task_id === target);
    return undefined;
  };
  const idOf = async (target: Target): Promise<number | undefined> => {
    if (target instanceof JobItem) return target.job.task_id;
    if (typeof target === 'number') return target;
    const picked = await vscode.window.showQuickPick(
      tree.items().map((item) => ({ label: item.job.task_name, description: String(item.description ?? ''), id: item.job.task_id })),
      { title: vscode.l10n.t('Pick a job') },
    );
    return picked?.id;
  };

  /** Refresh pressed: the store polls now; a failed listing shows in the view and is reported. */
  async function refresh(): Promise<void> {
    await state.refresh();
    const error = state.store(JOB_STATE)?.error;
    if (error !== undefined) throw error;
  }

  /** The active profile's jobs as the store holds them (a profile switch, a first look). */
  function render(): void {
    const store = state.store(JOB_STATE);
    if (store?.loaded) tree.update(store.items);
    else if (store?.error !== undefined) tree.fail(errorText(store.error));
    else tree.reset();
  }

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
        await confirmStop(jobs, jobId, name, () => terminal.warn(vscode.l10n.t('Stopping job {0}…', jobId)));
      },
    });
    terminals.add(terminal);
    terminal.show();
    terminal.info(vscode.l10n.t('Following the logs of job {0} ({1}). Ctrl+C asks to stop the job.', name, jobId));
    let queuedShown = false;
    void followJob(
      services.computeClient(),
      jobId,
      {
        onLines: (lines, gap) => terminal.lines(lines, gap, vscode.l10n.t('… some lines were dropped by the platform before they could be read …')),
        onStatus: (detail) => {
          if (detail.schedule_status === 'Queued' && !queuedShown) {
            queuedShown = true;
            terminal.warn(vscode.l10n.t('Spot job is waiting in the queue for resources…'));
          }
        },
        onEnd: (detail) => {
          const ended = jobView(detail, Date.now());
          terminal.result(ended.phase === 'succeeded', vscode.l10n.t('Job {0}: {1} · {2} · billed {3}', jobId, phaseLabel(ended.phase), formatElapsed(ended.elapsedSeconds), formatPoints(ended.billedPoints)));
        },
        onError: (error) => terminal.warn(vscode.l10n.t('Could not read the job: {0}', error instanceof Error ? error.message : String(error))),
      },
      { signal: abort.signal },
    );
  }

  /** Jobs whose end a Run on GPU terminal announces itself (one notification per end). */
  const claimedEnds = new ClaimedEnds();
  const hooks: RunHooks = {
    syncer: () => nas?.syncer,
    pickVolume: async (regionName, preferred) => {
      if (nas) return nas.pickVolume(regionName, preferred);
      const text = await vscode.window.showInputBox({ title: vscode.l10n.t('NAS volume id'), validateInput: (v) => (/^\d{1,15}$/.test(v.trim()) ? undefined : vscode.l10n.t('A volume id (digits)')) });
      return text === undefined ? undefined : Number(text.trim());
    },
    openOutputs: async (storageId, remoteDir) => {
      if (nas) await nas.openOutputs(storageId, remoteDir);
    },
    announceFolder: async (storageId, remoteDir) => nas?.announceFolder?.(storageId, remoteDir),
    terminals,
    runTerminals: new Map(),
    onJobCreated: (jobId) => {
      claimedEnds.claim(jobId);
      state.wake();
    },
    onRunSettled: (jobId, announced) => {
      if (!announced) claimedEnds.release(jobId);
      state.wake();
    },
  };

  const entries: CommandEntry<void>[] = [
    { id: Commands.jobsRefresh, doing: vscode.l10n.t('Load jobs'), create: () => () => refresh() },
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
        const id = await idOf(target as Target);
        if (id !== undefined) await showLogs(id);
      },
    },
    {
      id: Commands.jobsStop,
      doing: vscode.l10n.t('Stop job'),
      create: () => async (target?: unknown) => {
        const id = await idOf(target as Target);
        if (id === undefined) return;
        await confirmStop(jobs, id, jobOf(id)?.task_name ?? String(id));
      },
    },
    {
      id: Commands.jobsDetail,
      doing: vscode.l10n.t('Show job detail'),
      create: () => async (target?: unknown) => {
        const id = await idOf(target as Target);
        if (id === undefined) return;
        await services.openReadOnlyDocument({
          key: `job/${id}`,
          title: vscode.l10n.t('Job {0}.json', id),
          language: 'json',
          // Env values can be secrets: masked here as in task detail; write-only passwords never come back.
          content: async () => JSON.stringify(maskTaskEnv(await jobs.detail(id)), null, 2),
        });
      },
    },
  ];

  /** A job that ended (completed, failed or stopped) since the last poll: its phase, time and cost. */
  function announce(job: JobSummary, profile: Profile): void {
    const endedView = jobView(job, Date.now());
    const text = vscode.l10n.t('Job "{0}" {1} after {2} · billed {3}', job.task_name, phaseLabel(endedView.phase), formatElapsed(endedView.elapsedSeconds), formatPoints(endedView.billedPoints));
    const openLogs = vscode.l10n.t('Open Logs');
    const mount = job.services[0]?.nas_storage_config?.[0];
    const openOutputs = vscode.l10n.t('Open Outputs');
    // Logs and outputs are read through the active profile's client: offered for its jobs only.
    const own = isActive(profile);
    const actions = !own ? [] : mount && nas ? [openLogs, openOutputs] : [openLogs];
    const message = own ? text : `${profile.label}: ${text}`;
    const show = endedView.phase === 'failed' ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    void show(message, ...actions).then((action) => {
      if (action === openLogs) void showLogs(job.task_id);
      if (action === openOutputs && mount) void hooks.openOutputs(mount.storage_id, '/');
    });
  }

  const followView = state.follow(
    JOB_STATE,
    (change, profile) => {
      if (isActive(profile)) tree.update(change.items);
    },
    'view',
    (error, profile) => {
      if (isActive(profile)) tree.fail(errorText(error));
    },
  );
  // A job seen live is announced once when it is next seen ended; one that started and ended between
  // two polls too (never on a profile's first look, which only learns what exists).
  const followEnds = state.follow(JOB_STATE, (change, profile) => {
    for (const job of claimedEnds.unclaimed(jobsEndedIn(change))) announce(job, profile);
  });
  const profileChanged = services.profiles.onDidChangeActive(() => render());
  const watchChanged = state.onDidChangeWatched(() => render());
  render();

  const api: JobsApi = {
    snapshot: () =>
      tree.items().map((item) => ({
        id: item.job.task_id,
        label: String(item.label),
        description: String(item.description ?? ''),
        tooltip: item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? ''),
      })),
    terminalTexts: () => [...terminals].map((terminal) => [...terminal.transcript]),
    setNasHooks: (value) => {
      nas = value;
    },
    showLogs,
  };
  return {
    api,
    disposables: [
      view,
      tree,
      followView,
      followEnds,
      profileChanged,
      watchChanged,
      { dispose: () => terminals.forEach((terminal) => terminal.dispose()) },
      ...registerCommandTable(entries, undefined, services.reportError),
    ],
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
