// The spec commands as command-table entries: from a CodeLens (the file's URI), the editor title, or
// the palette (the active editor); Save as Spec File… from a task row; New Spec from Template… and
// Set Spec Secret… from the palette.

import * as vscode from 'vscode';
import { Commands, type CommandId } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import { flattenRegions, type RegionChoice } from '../resources/index';
import { imageTemplates, preselectRegion, taskIdFrom, type ImageTemplate } from '../tasks/index';
import type { JobTemplate } from '../../core/jobs/templates';
import { templateStep } from '../choices/jobTemplates';
import { specsCore } from '../../core/specs/load';
import { resourceServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import type { SpecActions } from './specActions';
import type { SpecSecrets } from './specSecrets';
import { askSpecSecret } from './secretFlow';
import { specFromTemplate } from './templates';

/** What the spec commands are given by registerSpecs (index.ts). */
export interface SpecsContext {
  services: ExtensionServices;
  actions: SpecActions;
  secrets: SpecSecrets;
}

function entry(id: CommandId, doing: string, handler: (context: SpecsContext, arg: unknown, extra: unknown, more: unknown) => unknown): CommandEntry<SpecsContext> {
  return { id, doing, create: (context) => (arg?: unknown, extra?: unknown, more?: unknown) => handler(context, arg, extra, more) };
}

/** Save as Spec File's answer without asking: { plain: ["NAME", "service/NAME"] } keeps those values plain. */
function plainOption(more: unknown): readonly string[] | undefined {
  const plain = typeof more === 'object' && more !== null ? (more as { plain?: unknown }).plain : undefined;
  return Array.isArray(plain) ? plain.filter((name): name is string => typeof name === 'string') : undefined;
}

/** The spec file a command acts on: its URI argument, else the active editor's file. */
function specUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg !== '') return vscode.Uri.parse(arg);
  const active = vscode.window.activeTextEditor?.document.uri;
  if (!active) void vscode.window.showInformationMessage(vscode.l10n.t('Open a spec file (*.task.json, *.task.yaml, *.job.json, *.job.yaml) first.'));
  return active;
}

/** A job id from a Jobs view row ({ job: { task_id } }) or a number. */
function jobIdFrom(arg: unknown): number | undefined {
  if (typeof arg === 'number' && Number.isInteger(arg) && arg > 0) return arg;
  const job = typeof arg === 'object' && arg !== null ? (arg as { job?: { task_id?: unknown } }).job : undefined;
  return typeof job?.task_id === 'number' ? job.task_id : undefined;
}

const confirmOption = (extra: unknown): { confirm?: boolean } => (typeof extra === 'object' && extra !== null && (extra as { confirm?: unknown }).confirm === false ? { confirm: false } : {});

export const SPEC_COMMANDS: readonly CommandEntry<SpecsContext>[] = [
  entry(Commands.specValidate, vscode.l10n.t('Validate the spec file'), (context, arg) => {
    const uri = specUri(arg);
    return uri ? context.actions.validate(uri) : undefined;
  }),
  entry(Commands.specPlan, vscode.l10n.t('Plan the spec file'), (context, arg) => {
    const uri = specUri(arg);
    return uri ? context.actions.plan(uri) : undefined;
  }),
  entry(Commands.specDeploy, vscode.l10n.t('Deploy the spec file'), (context, arg, extra) => {
    const uri = specUri(arg);
    return uri ? context.actions.deploy(uri, confirmOption(extra)) : undefined;
  }),
  entry(Commands.specUpdate, vscode.l10n.t('Update the task from the spec file'), (context, arg, extra) => {
    const uri = specUri(arg);
    return uri ? context.actions.update(uri, confirmOption(extra)) : undefined;
  }),
  entry(Commands.specOpenLive, vscode.l10n.t('Open the live task'), async (context, arg) => {
    const uri = specUri(arg);
    const live = uri ? await context.actions.liveOf(uri) : undefined;
    if (live) await vscode.commands.executeCommand(live.kind === 'job' ? Commands.jobsDetail : Commands.tasksDetail, live.taskId);
  }),
  entry(Commands.specStop, vscode.l10n.t('Stop the live task'), async (context, arg) => {
    const uri = specUri(arg);
    const live = uri ? await context.actions.liveOf(uri) : undefined;
    // Both Stop commands confirm first: stopping deletes the task (Pause is offered) or ends the job for good.
    if (live) await vscode.commands.executeCommand(live.kind === 'job' ? Commands.jobsStop : Commands.tasksStop, live.taskId);
  }),
  entry(Commands.specSaveFromTask, vscode.l10n.t('Save a task as a spec file'), async (context, arg, extra, more) => {
    let taskId = taskIdFrom(arg);
    if (taskId === undefined) {
      const typed = await vscode.window.showInputBox({ title: vscode.l10n.t('Save as Spec File'), prompt: vscode.l10n.t('Task id'), validateInput: (value) => (/^\d+$/.test(value.trim()) ? undefined : vscode.l10n.t('Enter a task id (digits).')) });
      if (!typed) return undefined;
      taskId = Number(typed.trim());
    }
    return context.actions.saveFromTask(taskId, extra instanceof vscode.Uri ? extra : undefined, plainOption(more));
  }),
  entry(Commands.specSaveFromJob, vscode.l10n.t('Save a job as a spec file'), async (context, arg, extra, more) => {
    let jobId = jobIdFrom(arg);
    if (jobId === undefined) {
      const typed = await vscode.window.showInputBox({ title: vscode.l10n.t('Save as Spec File'), prompt: vscode.l10n.t('Job id'), validateInput: (value) => (/^\d+$/.test(value.trim()) ? undefined : vscode.l10n.t('Enter a job id (digits).')) });
      if (!typed) return undefined;
      jobId = Number(typed.trim());
    }
    return context.actions.saveFromJob(jobId, extra instanceof vscode.Uri ? extra : undefined, plainOption(more));
  }),
  entry(Commands.specNewFromTemplate, vscode.l10n.t('Create a spec file from a template'), async (context, arg, extra) => {
    // Task templates (the create wizard's images) and job templates (Create Job…'s starting points).
    type Choice = vscode.QuickPickItem & { id?: string; task?: ImageTemplate; job?: JobTemplate };
    const taskChoices: Choice[] = imageTemplates(vscode.l10n).map((item) => ({ label: item.label, description: item.image, detail: item.description, id: item.id, task: item }));
    const jobChoices: Choice[] = templateStep()
      .items.filter((item) => item.template.image !== '')
      .map((item) => ({ label: item.label, description: item.template.image, detail: item.template.command, id: `job:${item.template.id}`, job: item.template }));
    const wanted = typeof arg === 'string' ? [...taskChoices, ...jobChoices].find((choice) => choice.id === arg) : undefined;
    const picked =
      wanted ??
      (await vscode.window.showQuickPick<Choice>(
        [{ label: vscode.l10n.t('Task (deployment)'), kind: vscode.QuickPickItemKind.Separator }, ...taskChoices, { label: vscode.l10n.t('Batch job'), kind: vscode.QuickPickItemKind.Separator }, ...jobChoices],
        { title: vscode.l10n.t('New Spec from Template'), placeHolder: vscode.l10n.t('Start from a template: a task (the create wizard\'s images) or a batch job') },
      ));
    if (!picked || (!picked.task && !picked.job)) return undefined;
    const profile = context.services.profiles.active;
    let offer: RegionChoice | undefined;
    if (profile) {
      try {
        offer = preselectRegion(flattenRegions((await resourceServiceOf(context.services).gpuDeployments()).results ?? []));
      } catch (error) {
        context.services.logger.warn(`New spec from template: no resource search (${error instanceof Error ? error.message : String(error)}); using a placeholder resource.`);
      }
    }
    const spec = picked.job ? specsCore().jobSpecFromTemplate(picked.job, offer, profile?.id) : specFromTemplate(picked.task as ImageTemplate, offer, profile?.id);
    const fileName = picked.job ? `${picked.job.id}.job.json` : `${(picked.task as ImageTemplate).id}.task.json`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri =
      extra instanceof vscode.Uri
        ? extra
        : await vscode.window.showSaveDialog({ ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}), filters: { [vscode.l10n.t('Spec file')]: ['json', 'yaml'] }, title: vscode.l10n.t('Save the new spec file') });
    if (!uri) return undefined;
    await context.actions.writeSpec(uri, spec);
    return uri;
  }),
  entry(Commands.specSetSecret, vscode.l10n.t('Set a spec secret'), async (context, arg) => {
    const answers = await askSpecSecret(typeof arg === 'string' && arg !== '' ? arg : undefined);
    if (!answers) return;
    await context.secrets.store(answers.name, answers.value);
    void vscode.window.showInformationMessage(vscode.l10n.t('Spec secret "{0}" stored.', answers.name));
  }),
];
