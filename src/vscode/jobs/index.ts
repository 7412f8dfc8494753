// The jobs area (batch jobs, Run on GPU): the Jobs view fed by the one jobs poll loop
// (src/core/jobs/polling.ts), job commands, log terminals, notifications when a job ends, and Run on GPU.
// The NAS area supplies folder sync, the volume picker and "open outputs" through setNasHooks (wired
// by the composition root once both areas are in).

import * as vscode from 'vscode';
import { Commands, Views } from '../commandIds';
import { registerCommandTable, type CommandEntry } from '../commands/commandTable';
import type { JobSummary } from '../../core/jobs/operations';
import { followJob, JobsFeed } from '../../core/jobs/polling';
import type { FolderSyncer } from '../../core/jobs/runOnGpu';
import { formatElapsed, jobView } from '../../core/jobs/status';
import { maskTaskEnv } from '../../core/tasks/envMask';
import { formatPoints } from '../../core/spend/units';
import type { ExtensionServices } from '../services';
import { createJobWizard } from './createJobWizard';
import { JobItem, JobsTree, phaseLabel } from './jobsTree';
import { JobTerminal } from './jobTerminal';
import { confirmStop, runOnGpuCommand, type RunHooks } from './runOnGpuCommand';

export interface NasHooks {
  syncer: FolderSyncer;
  pickVolume(): Promise<number | undefined>;
  openOutputs(storageId: number, remoteDir: string): Promise<void>;
}

export interface JobsApi {
  readonly feed: JobsFeed;
  /** The rows of the Jobs view as shown (label, description and the tooltip's text). */
  snapshot(): { id: number; label: string; description: string; tooltip: string }[];
  /** Plain text written to the open job terminals. */
  terminalTexts(): string[][];
  setNasHooks(hooks: NasHooks): void;
  /** Opens a following log terminal for a job (the Show Logs command). */
  showLogs(jobId: number): Promise<void>;
}

type Target = JobItem | number | undefined;

export function registerJobs(services: ExtensionServices): { api: JobsApi; disposables: vscode.Disposable[] } {
  const client = () => {
    try {
      return services.profiles.active ? services.computeClient() : undefined;
    } catch {
      return undefined;
    }
  };
  const feed = new JobsFeed(client);
  const tree = new JobsTree();
  const view = vscode.window.createTreeView(Views.jobs, { treeDataProvider: tree });
  const terminals = new Set<JobTerminal>();
  let nas: NasHooks | undefined;

  const jobOf = (target: Target): JobSummary | undefined => {
    if (target instanceof JobItem) return target.job;
    if (typeof target === 'number') return feed.jobs.find((job) => job.task_id === target);
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

  async function refresh(): Promise<void> {
    try {
      await feed.refresh();
    } catch (error) {
      tree.fail(error instanceof Error ? error.message : String(error));
      throw error;
    }
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
        if (await confirmStop(services, jobId, name, () => terminal.warn(vscode.l10n.t('Stopping job {0}…', jobId)))) void refresh().catch(() => undefined);
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

  const hooks: RunHooks = {
    syncer: () => nas?.syncer,
    pickVolume: async () => {
      if (nas) return nas.pickVolume();
      const text = await vscode.window.showInputBox({ title: vscode.l10n.t('NAS volume id'), validateInput: (v) => (/^\d{1,15}$/.test(v.trim()) ? undefined : vscode.l10n.t('A volume id (digits)')) });
      return text === undefined ? undefined : Number(text.trim());
    },
    openOutputs: async (storageId, remoteDir) => {
      if (nas) await nas.openOutputs(storageId, remoteDir);
    },
    terminals,
    onJobCreated: () => void refresh().catch(() => undefined),
  };

  const entries: CommandEntry<void>[] = [
    { id: Commands.jobsRefresh, doing: vscode.l10n.t('Load jobs'), create: () => () => refresh() },
    {
      id: Commands.jobsCreate,
      doing: vscode.l10n.t('Create job'),
      create: () => async () => {
        const id = await createJobWizard(services);
        if (id === undefined) return;
        await refresh().catch(() => undefined);
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
        if (await confirmStop(services, id, jobOf(id)?.task_name ?? String(id))) await refresh();
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
          content: async () => JSON.stringify(maskTaskEnv(await services.computeClient().call('job.detail', { task_id: id })), null, 2),
        });
      },
    },
  ];

  const ended = feed.onJobEnded((job) => {
    const endedView = jobView(job, Date.now());
    const text = vscode.l10n.t('Job "{0}" {1} after {2} · billed {3}', job.task_name, phaseLabel(endedView.phase), formatElapsed(endedView.elapsedSeconds), formatPoints(endedView.billedPoints));
    const openLogs = vscode.l10n.t('Open Logs');
    const mount = job.services[0]?.nas_storage_config?.[0];
    const openOutputs = vscode.l10n.t('Open Outputs');
    const actions = mount && nas ? [openLogs, openOutputs] : [openLogs];
    const show = endedView.phase === 'failed' ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    void show(text, ...actions).then((action) => {
      if (action === openLogs) void showLogs(job.task_id);
      if (action === openOutputs && mount) void hooks.openOutputs(mount.storage_id, '/');
    });
  });
  const listed = feed.onJobs((jobs) => tree.update(jobs));
  const profileChanged = services.profiles.onDidChangeActive(() => {
    feed.reset();
    void refresh().catch(() => undefined);
  });
  feed.start();

  const api: JobsApi = {
    feed,
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
      ended,
      listed,
      profileChanged,
      { dispose: () => feed.stop() },
      { dispose: () => terminals.forEach((terminal) => terminal.dispose()) },
      ...registerCommandTable(entries, undefined, services.reportError),
    ],
  };
}
