// What the spec commands do, callable without UI from the in-host tests: validate against the
// platform, plan (diff view + summary), deploy (create, then remember the task id in the file),
// update (only after a plan of the file's current text; confirmed; production stands out); saving a
// live task or job as a file is specSaving.ts. Platform refusals that name a field become
// diagnostics on that field.

import * as vscode from 'vscode';
import { errorText } from '../errors/errorText';
import { ComputeApiError } from '../../core/compute/errors';
import type { JobPlan } from '../../core/specs/jobPlan';
import { specsCore } from '../../core/specs/load';
import type { TaskPlan } from '../../core/specs/plan';
import { VOLUME_STATE } from '../../core/nas/volumeState';
import type { SpecCheck, SpecContext } from '../../core/specs/runner';
import type { ClientSource } from '../../core/state/servicePorts';
import { specServicesNow } from '../client/computeServices';
import type { JobSpec, Spec, TaskSpec } from '../../core/specs/types';
import { Commands } from '../commandIds';
import type { SpecValidation } from '../../core/specs/validate';
import type { ExtensionServices as Services } from '../services';
import { Refusal } from '../errors/refusal';
import { SpecSaving } from './specSaving';
import { ProfileIdHints, writeDeployedIds } from './specFileEdits';
import type { Profile } from '../services';
import type { RemoteState } from '../state/index';
import { abortSignalFor } from '../ui/cancellation';
import { formatOf, type SpecDocuments } from './specDocuments';
import { costText, jobExistsText, liveHeader, summarize, summarizeJob } from './planSummary';
import { LOCALIZED_SPEC_MESSAGES } from './specMessages';
import type { SpecSecrets } from './specSecrets';
import { review } from '../ui/review';
import { specFactLines } from './whatRunsLines';
import { counted } from '../ui/counts';
import { deviceLabel } from '../ui/format';
import { knownProfileLabels } from '../profiles/index';

export interface LoadedSpec<T extends Spec = Spec> {
  document: vscode.TextDocument;
  validation: SpecValidation;
  spec: T;
  profile: Profile;
}

export interface PlanShown {
  plan: TaskPlan;
  /** The one-line summary shown with the diff. */
  summary: string;
  /** The summary lines naming each change and reset. */
  lines: string[];
  /** What the file will run and send: profile, images, commands, env sources, mounts. */
  facts: string[];
}

export interface JobPlanShown {
  plan: JobPlan;
  /** The one-line summary (what would be created). */
  summary: string;
  /** Cost, stock, the "cannot be updated" note, missing secrets. */
  lines: string[];
  /** What the file will run and send: profile, images, commands, env sources, mounts. */
  facts: string[];
}

export class SpecActions {
  /** The text of each file as last planned: Update requires the current text to have been planned. */
  private readonly planned = new Map<string, string>();
  private readonly saving: SpecSaving;
  private readonly profileHints = new ProfileIdHints();

  constructor(
    private readonly services: Services,
    private readonly documents: SpecDocuments,
    private readonly secrets: SpecSecrets,
    /** The remote-state store: the NAS check reads the volumes it holds. */
    private readonly state: RemoteState,
    /** The active profile's client, read per plan or deploy (the composition root's, client/computeServices.ts). */
    private readonly client: ClientSource,
  ) {
    this.saving = new SpecSaving(services, secrets);
  }

  private context(signal?: AbortSignal): SpecContext {
    const nasVolumes = async () => (await this.state.items(VOLUME_STATE)).map(specsCore().specVolume);
    return { services: specServicesNow(this.client), resolveSecret: (ref) => this.secrets.resolve(ref), nasVolumes, messages: LOCALIZED_SPEC_MESSAGES, ...(signal ? { signal } : {}) };
  }

  /**
   * A file that reads environment variables the user has not allowed (in their own settings) is refused,
   * never planned with the values silently missing: the refusal names them and offers to allow them.
   */
  private environmentAllowed(loaded: LoadedSpec, again: () => unknown): boolean {
    const refused = specsCore().environmentNotAllowed(loaded.spec, this.services.config.allowedEnvironmentVariables);
    if (refused.length === 0) return true;
    const names = refused.map((name) => specsCore().shownValue(name, 80)).join(', ');
    const allow = vscode.l10n.t('Allow in User Settings');
    this.services.refusals.show(
      vscode.l10n.t(
        "{0} reads {1} from this machine's environment, which spec files may read only when you allow it in your user settings (computeToolkit.specs.allowedEnvironmentVariables). Nothing was read or sent. Allow it only if this file should send its value to the platform.",
        vscode.workspace.asRelativePath(loaded.document.uri),
        names,
      ),
      [
        {
          title: allow,
          run: async () => {
            await this.services.config.allowEnvironmentVariables(refused);
            await again();
          },
        },
      ],
    );
    return false;
  }

  /** Opens and validates a spec file; says why it cannot be used (invalid, other profile) and returns undefined then. */
  async load(uri: vscode.Uri): Promise<LoadedSpec | undefined> {
    const document = await vscode.workspace.openTextDocument(uri);
    const check = await this.documents.check(document);
    if (!check) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This is not a spec file (*.task.json, *.job.json, *.task.yaml, *.job.yaml).'));
      return undefined;
    }
    // The worker checked the text off this thread; only a valid file (within the shape limits) is parsed here again, for its source map.
    const validation = check.valid ? specsCore().validateSpecText(document.getText(), formatOf(document), LOCALIZED_SPEC_MESSAGES) : undefined;
    if (!validation?.spec) {
      this.services.reportError(new Refusal(vscode.l10n.t('Fix the problems in {0} first (see the Problems view); nothing was sent.', vscode.workspace.asRelativePath(uri))), vscode.l10n.t('Spec file'));
      return undefined;
    }
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const target = validation.spec.profile;
    const match = specsCore().matchProfileRef(target, profile, knownProfileLabels(profile.id));
    if (match.kind === 'other') {
      this.services.reportError(new Refusal(vscode.l10n.t('This spec targets profile "{0}", but the active profile is "{1}" (id "{2}"). Switch profiles first; nothing was sent.', target ?? '', profile.label, profile.id)), vscode.l10n.t('Spec file'));
      return undefined;
    }
    if (match.kind === 'label') this.profileHints.offer(document, target ?? '', match.id);
    return { document, validation, spec: validation.spec, profile };
  }

  private async loadTask(uri: vscode.Uri): Promise<LoadedSpec<TaskSpec> | undefined> {
    const loaded = await this.load(uri);
    if (!loaded) return undefined;
    if (loaded.spec.kind !== 'task') {
      void vscode.window.showInformationMessage(vscode.l10n.t('Jobs cannot be updated on the platform: a job spec has Plan and Deploy (a new job) only.'));
      return undefined;
    }
    return loaded as LoadedSpec<TaskSpec>;
  }

  /** Puts findings on their fields as diagnostics (they stay until the file changes). */
  private showFindings(loaded: LoadedSpec, findings: { path: (string | number)[]; message: string; severity: 'error' | 'warning' | 'info' }[]): vscode.Diagnostic[] {
    const severity = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning, info: vscode.DiagnosticSeverity.Information };
    const diagnostics = findings.map((finding) => {
      const span = loaded.validation.source.locate(finding.path, 'key');
      const start = loaded.document.positionAt(span.start);
      const end = loaded.document.positionAt(Math.max(span.end, span.start + 1));
      const diagnostic = new vscode.Diagnostic(new vscode.Range(start, end), finding.message, severity[finding.severity]);
      diagnostic.source = vscode.l10n.t('Compute platform');
      return diagnostic;
    });
    this.documents.setPlatformFindings(loaded.document, diagnostics);
    return diagnostics;
  }

  /** A platform refusal that names a field lands on that field; the error still goes to reportError. */
  private placeError(loaded: LoadedSpec, error: unknown): void {
    if (error instanceof specsCore().SpecPlanError) this.showFindings(loaded, [{ path: [error.path], message: errorText(error), severity: 'error' }]);
    else if (error instanceof ComputeApiError) {
      const path = specsCore().specPathFromMessage(error.serverMessage);
      if (path) this.showFindings(loaded, [{ path, message: vscode.l10n.t('The platform refused this field: {0}', error.serverMessage), severity: 'error' }]);
    }
  }

  async validate(uri: vscode.Uri): Promise<SpecCheck[] | undefined> {
    const loaded = await this.load(uri);
    if (!loaded) return undefined;
    const checks = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the spec on the platform…'), cancellable: true }, (_progress, token) =>
      specsCore().checkSpec(loaded.spec, this.context(abortSignalFor(token))),
    );
    this.showFindings(loaded, checks);
    const errors = checks.filter((check) => check.severity === 'error').length;
    const warnings = checks.filter((check) => check.severity === 'warning').length;
    if (errors > 0) this.services.reportError(new Refusal(vscode.l10n.t('{0}: {1} on the platform (see the Problems view).', vscode.workspace.asRelativePath(uri), counted(errors, 'problem'))), vscode.l10n.t('Validate the spec file'));
    else if (warnings > 0) void vscode.window.showWarningMessage(vscode.l10n.t('{0} is valid, with {1} (see the Problems view).', vscode.workspace.asRelativePath(uri), counted(warnings, 'warning')));
    else void vscode.window.showInformationMessage(vscode.l10n.t('{0} is valid: the resource exists and is in stock.', vscode.workspace.asRelativePath(uri)));
    return checks;
  }

  private async computePlan(loaded: LoadedSpec<TaskSpec>): Promise<TaskPlan> {
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Planning {0}…', loaded.spec.name), cancellable: true }, (_progress, token) =>
        specsCore().planTaskSpec(loaded.spec, this.context(abortSignalFor(token))),
      );
    } catch (error) {
      this.placeError(loaded, error);
      throw error;
    }
  }

  /** Plans the file and shows the diff (live ↔ file) with a summary; remembers the planned text. */
  async plan(uri: vscode.Uri, options: { show?: boolean } = {}): Promise<PlanShown | undefined> {
    const any = await this.load(uri);
    if (!any) return undefined;
    if (!this.environmentAllowed(any, () => vscode.commands.executeCommand(Commands.specPlan, uri))) return undefined;
    if (any.spec.kind === 'job') {
      await this.showJobPlanOf(any as LoadedSpec<JobSpec>, options);
      return undefined;
    }
    const loaded = any as LoadedSpec<TaskSpec>;
    const plan = await this.computePlan(loaded);
    this.planned.set(uri.toString(), loaded.document.getText());
    const shown = { plan, ...summarize(plan), facts: specFactLines(loaded.spec, loaded.profile, uri) };
    if (options.show !== false) await this.showPlan(loaded, shown);
    return shown;
  }

  private async showPlan(loaded: LoadedSpec<TaskSpec>, shown: PlanShown): Promise<void> {
    const { plan } = shown;
    const key = `spec-plan/${encodeURIComponent(loaded.document.uri.toString())}`;
    const header = (lines: string[]) => lines.map((line) => `# ${line}`).join('\n');
    const left = await this.services.putReadOnlyDocument({
      key: `${key}/live`,
      title: vscode.l10n.t('live task.yaml'),
      language: 'yaml',
      content: async () => (plan.live ? `${header([liveHeader(plan)])}\n${specsCore().yamlText(plan.live)}` : `${header([vscode.l10n.t('No live task: Deploy creates one.')])}\n`),
    });
    const right = await this.services.putReadOnlyDocument({
      key: `${key}/file`,
      title: vscode.l10n.t('{0} (plan).yaml', vscode.workspace.asRelativePath(loaded.document.uri).replace(/[\\/]/g, '∕')),
      language: 'yaml',
      content: async () => `${header([shown.summary, ...shown.lines, '', ...shown.facts])}\n${specsCore().yamlText(plan.desired)}`,
    });
    await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('Plan: {0} (live ↔ file)', plan.taskName), { preview: false });
    if (plan.missingSecrets.length > 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Set these secrets before applying: {0} (command "Set Spec Secret…").', plan.missingSecrets.map(specsCore().refText).join(', ')));
    } else void vscode.window.showInformationMessage(shown.summary);
  }

  /** Creates the task of a file without a task id, after a confirmation with the cost; writes the id back. */
  async deploy(uri: vscode.Uri, options: { confirm?: boolean } = {}): Promise<number | undefined> {
    const again = () => vscode.commands.executeCommand(Commands.specDeploy, uri);
    if (!this.services.trust.allows(vscode.l10n.t('Deploy from a spec file'), again)) return undefined;
    const any = await this.load(uri);
    if (!any) return undefined;
    if (!this.environmentAllowed(any, again)) return undefined;
    if (any.spec.kind === 'job') return this.deployJobOf(any as LoadedSpec<JobSpec>, options);
    const loaded = any as LoadedSpec<TaskSpec>;
    if (loaded.spec.taskId !== undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This file already deployed task {0}: use Update to change it, or remove "taskId" to deploy a new one.', loaded.spec.taskId));
      return undefined;
    }
    const plan = await this.computePlan(loaded);
    if (plan.missingSecrets.length > 0) {
      this.services.reportError(new Refusal(vscode.l10n.t('Set these secrets before deploying: {0} (command "Set Spec Secret…"). Nothing was sent.', plan.missingSecrets.map(specsCore().refText).join(', '))), vscode.l10n.t('Deploy the spec file'));
      return undefined;
    }
    if (options.confirm !== false) {
      const stock = plan.inventory > 0 ? vscode.l10n.t('{0} in stock', plan.inventory) : vscode.l10n.t('sold out: the task may stay Pending');
      const money = vscode.l10n.t('{0} of {1} in {2}: {3}, billed per second while nodes run ({4}).', counted(plan.body.points, 'node'), deviceLabel(plan.offer.device), plan.offer.region.region_name, costText(plan.costAfter), stock);
      const name = specsCore().shownValue(plan.taskName, 80);
      const confirmed = await review({
        title:
          loaded.profile.environment === 'prod'
            ? vscode.l10n.t('Deploy "{0}" on PRODUCTION profile "{1}"?', name, loaded.profile.label)
            : vscode.l10n.t('Deploy "{0}" on profile "{1}"?', name, loaded.profile.label),
        placeholder: money,
        go: { label: vscode.l10n.t('Deploy ({0})', costText(plan.costAfter)), description: vscode.l10n.t('Profile: {0}', loaded.profile.label) },
        facts: [money, ...specFactLines(loaded.spec, loaded.profile, uri)],
      });
      if (!confirmed) return undefined;
    }
    let taskId: number;
    try {
      taskId = (await specsCore().applyTaskPlan(plan, this.context())).taskId;
    } catch (error) {
      this.placeError(loaded, error);
      throw error;
    }
    this.services.logger.info(`Spec ${vscode.workspace.asRelativePath(uri)}: created task ${taskId}.`);
    await writeDeployedIds(loaded.document, { taskId, profile: loaded.profile.id });
    void vscode.commands.executeCommand(Commands.tasksRefresh).then(undefined, () => undefined);
    void vscode.window.showInformationMessage(vscode.l10n.t('Deployed task {0}; the file now remembers its id.', taskId));
    return taskId;
  }

  /**
   * Overwrites the live task with the file. Only after a plan of the file's current text: without
   * one, the plan is shown first. The confirmation names every change and reset and the cost.
   */
  async update(uri: vscode.Uri, options: { confirm?: boolean } = {}): Promise<'sent' | 'unchanged' | 'cancelled' | undefined> {
    const again = () => vscode.commands.executeCommand(Commands.specUpdate, uri);
    if (!this.services.trust.allows(vscode.l10n.t('Update Task from Spec File'), again)) return undefined;
    const loaded = await this.loadTask(uri);
    if (!loaded) return undefined;
    if (!this.environmentAllowed(loaded, again)) return undefined;
    if (loaded.spec.taskId === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This file has no task id yet: Deploy creates the task.'));
      return undefined;
    }
    const wasPlanned = this.planned.get(uri.toString()) === loaded.document.getText();
    const plan = await this.computePlan(loaded);
    const shown = { plan, ...summarize(plan), facts: specFactLines(loaded.spec, loaded.profile, uri) };
    this.planned.set(uri.toString(), loaded.document.getText());
    if (!wasPlanned && options.confirm !== false) await this.showPlan(loaded, shown);
    if (plan.changes.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Task {0} already matches the file: no update sent.', plan.taskId ?? ''));
      return 'unchanged';
    }
    if (plan.missingSecrets.length > 0) {
      this.services.reportError(new Refusal(vscode.l10n.t('Set these secrets before updating: {0} (command "Set Spec Secret…"). Nothing was sent.', plan.missingSecrets.map(specsCore().refText).join(', '))), vscode.l10n.t('Update the task from the spec file'));
      return 'cancelled';
    }
    if (options.confirm !== false) {
      const name = specsCore().shownValue(plan.taskName, 80);
      const changes = shown.lines.slice(0, 40).concat(shown.lines.length > 40 ? [vscode.l10n.t('…and more (see the plan)')] : []);
      const confirmed = await review({
        title:
          loaded.profile.environment === 'prod'
            ? vscode.l10n.t('PRODUCTION: overwrite task {0} "{1}" on profile "{2}" with this file?', plan.taskId ?? '', name, loaded.profile.label)
            : vscode.l10n.t('Overwrite task {0} "{1}" on profile "{2}" with this file?', plan.taskId ?? '', name, loaded.profile.label),
        placeholder: shown.summary,
        go: { label: vscode.l10n.t('Update Task'), description: vscode.l10n.t('Profile: {0}', loaded.profile.label) },
        facts: [shown.summary, vscode.l10n.t('The update replaces the whole task; running nodes restart.'), ...changes, ...shown.facts],
      });
      if (!confirmed) return 'cancelled';
    }
    try {
      await specsCore().applyTaskPlan(plan, this.context());
    } catch (error) {
      this.placeError(loaded, error);
      throw error;
    }
    this.planned.delete(uri.toString());
    this.services.logger.info(`Spec ${vscode.workspace.asRelativePath(uri)}: updated task ${plan.taskId} (${plan.changes.length} change(s)).`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Updated task {0}: {1} applied.', plan.taskId ?? '', counted(plan.changes.length, 'change')));
    return 'sent';
  }

  /** The task or job a spec file remembers (Open Live, Stop). */
  async liveOf(uri: vscode.Uri): Promise<{ kind: 'task' | 'job'; taskId: number } | undefined> {
    const document = await vscode.workspace.openTextDocument(uri);
    const value = await this.documents.check(document);
    const kind = value?.kind === 'job' ? 'job' : 'task';
    if (typeof value?.taskId === 'number') return { kind, taskId: value.taskId };
    void vscode.window.showInformationMessage(kind === 'job' ? vscode.l10n.t('This file has no job id yet: Deploy creates the job.') : vscode.l10n.t('This file has no task id yet: Deploy creates the task.'));
    return undefined;
  }

  // ---- job specs: Plan (what Deploy would create, and its cost) and Deploy (a new job) ----

  private async computeJobPlan(loaded: LoadedSpec<JobSpec>): Promise<JobPlan> {
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Planning {0}…', loaded.spec.name), cancellable: true }, (_progress, token) =>
        specsCore().planJobSpec(loaded.spec, this.context(abortSignalFor(token))),
      );
    } catch (error) {
      this.placeError(loaded, error);
      throw error;
    }
  }

  /** Plans a job spec file: what Deploy would create and what it costs; shown as a read-only document. */
  async planJob(uri: vscode.Uri, options: { show?: boolean } = {}): Promise<JobPlanShown | undefined> {
    const loaded = await this.load(uri);
    if (!loaded) return undefined;
    if (loaded.spec.kind !== 'job') {
      void vscode.window.showInformationMessage(vscode.l10n.t('This is a task spec: use Plan.'));
      return undefined;
    }
    if (!this.environmentAllowed(loaded, () => vscode.commands.executeCommand(Commands.specPlan, uri))) return undefined;
    return this.showJobPlanOf(loaded as LoadedSpec<JobSpec>, options);
  }

  private async showJobPlanOf(loaded: LoadedSpec<JobSpec>, options: { show?: boolean }): Promise<JobPlanShown> {
    const plan = await this.computeJobPlan(loaded);
    const shown: JobPlanShown = { plan, ...summarizeJob(plan), facts: specFactLines(loaded.spec, loaded.profile, loaded.document.uri) };
    if (options.show === false) return shown;
    const header = [shown.summary, ...shown.lines, '', ...shown.facts].map((line) => `# ${line}`).join('\n');
    const uri = await this.services.putReadOnlyDocument({
      key: `spec-plan/${encodeURIComponent(loaded.document.uri.toString())}/job`,
      title: vscode.l10n.t('{0} (plan).yaml', vscode.workspace.asRelativePath(loaded.document.uri).replace(/[\\/]/g, '∕')),
      language: 'yaml',
      content: async () => `${header}\n${specsCore().yamlText(plan.desired)}`,
    });
    await vscode.window.showTextDocument(uri, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    if (plan.missingSecrets.length > 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Set these secrets before deploying: {0} (command "Set Spec Secret…").', plan.missingSecrets.map(specsCore().refText).join(', ')));
    } else void vscode.window.showInformationMessage(plan.action === 'exists' ? jobExistsText(plan) : `${shown.summary} ${shown.lines[0] ?? ''}`.trim());
    return shown;
  }

  /** Creates the job of a file without a job id, after a confirmation with its cost; writes the id back. */
  private async deployJobOf(loaded: LoadedSpec<JobSpec>, options: { confirm?: boolean }): Promise<number | undefined> {
    if (loaded.spec.taskId !== undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This file already created job {0}. Jobs cannot be updated on the platform: remove "taskId" to deploy a new job.', loaded.spec.taskId));
      return undefined;
    }
    const plan = await this.computeJobPlan(loaded);
    if (plan.missingSecrets.length > 0) {
      this.services.reportError(new Refusal(vscode.l10n.t('Set these secrets before deploying: {0} (command "Set Spec Secret…"). Nothing was sent.', plan.missingSecrets.map(specsCore().refText).join(', '))), vscode.l10n.t('Deploy the spec file'));
      return undefined;
    }
    if (options.confirm !== false) {
      const shown = summarizeJob(plan);
      const name = specsCore().shownValue(plan.jobName, 80);
      const confirmed = await review({
        title:
          loaded.profile.environment === 'prod'
            ? vscode.l10n.t('Create job "{0}" on PRODUCTION profile "{1}"?', name, loaded.profile.label)
            : vscode.l10n.t('Create job "{0}" on profile "{1}"?', name, loaded.profile.label),
        placeholder: shown.lines[0] ?? shown.summary,
        go: { label: vscode.l10n.t('Create Job'), description: vscode.l10n.t('Profile: {0}', loaded.profile.label) },
        facts: [shown.summary, ...shown.lines, ...specFactLines(loaded.spec, loaded.profile, loaded.document.uri)],
      });
      if (!confirmed) return undefined;
    }
    let taskId: number;
    try {
      taskId = (await specsCore().applyJobPlan(plan, this.context())).taskId;
    } catch (error) {
      this.placeError(loaded, error);
      throw error;
    }
    this.services.logger.info(`Spec ${vscode.workspace.asRelativePath(loaded.document.uri)}: created job ${taskId}.`);
    await writeDeployedIds(loaded.document, { taskId, profile: loaded.profile.id });
    void vscode.commands.executeCommand(Commands.jobsRefresh).then(undefined, () => undefined);
    const follow = vscode.l10n.t('Follow Logs');
    void vscode.window.showInformationMessage(vscode.l10n.t('Created job {0}; the file now remembers its id.', taskId), follow).then((action) => {
      if (action === follow) void vscode.commands.executeCommand(Commands.jobsShowLogs, taskId);
    });
    return taskId;
  }

  /** Saves a job as a spec file (specSaving.ts). */
  saveFromJob(jobId: number, target?: vscode.Uri, plain?: readonly string[]): Promise<vscode.Uri | undefined> {
    return this.saving.fromJob(jobId, target, plain);
  }

  /** Saves a live task as a spec file (specSaving.ts). */
  saveFromTask(taskId: number, target?: vscode.Uri, plain?: readonly string[]): Promise<vscode.Uri | undefined> {
    return this.saving.fromTask(taskId, target, plain);
  }

  /** Writes a spec file text to `uri` and opens it. */
  writeSpec(uri: vscode.Uri, spec: Spec): Promise<void> {
    return this.saving.write(uri, spec);
  }
}
