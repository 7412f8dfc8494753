// "Update Task Configuration…": task update overwrites the whole task on the platform, so the flow
// is read the detail → edit it as JSON → review a diff of every changed field → confirm → send.
// Nothing is sent without the review; a production profile says so in the confirmation.

import * as vscode from 'vscode';
import { confirmSpend } from '../ui/multiStepInput';
import type { TaskDetail } from '../../core/compute/api';
import { reviewUpdate } from '../../core/tasks/configDiff';
import { DEFAULT_TARGET_DIR, addMountToConfig, mountableVolumes, normalTargetDir, targetDirProblem } from '../../core/nas/mounts';
import { VOLUME_STATE } from '../../core/nas/volumeState';
import { formatGiB } from '../../core/nas/units';
import { documentText } from '../../core/terminalText';
import { targetDirText } from './targetDirText';
import type { TaskService } from '../../core/tasks/taskService';
import { taskServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { Refusal } from '../errors/refusal';
import type { RemoteState } from '../state/index';
import { MultiStepInput, type Step } from '../ui/multiStepInput';

interface PendingUpdate {
  profileId: string;
  taskId: number;
  original: TaskDetail;
  document: vscode.TextDocument;
}

export class TaskUpdateFlow {
  private readonly pending = new Map<string, PendingUpdate>();

  constructor(
    private readonly services: ExtensionServices,
    /** The remote-state store: the mount step's volumes come from it. */
    private readonly state: RemoteState,
    afterSend: () => void,
  ) {
    this.tasks = taskServiceOf(services, afterSend);
  }

  /** The active profile's tasks; an update wakes the store through `afterSend`. */
  private readonly tasks: TaskService;

  /** Opens the task's configuration as an editable JSON document. */
  async start(taskId: number): Promise<vscode.TextDocument | undefined> {
    const profile = this.services.profiles.active;
    if (!profile) return undefined;
    const original = await this.tasks.detail(taskId);
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: documentText(`${JSON.stringify(original, null, 2)}\n`, 'json') });
    this.pending.set(document.uri.toString(), { profileId: profile.id, taskId, original, document });
    await vscode.window.showTextDocument(document);
    const review = vscode.l10n.t('Review and Send…');
    const mount = vscode.l10n.t('Mount NAS Volume…');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Edit the configuration of "{0}", then review the changes before anything is sent. The update replaces the whole task.', original.task_name), review, mount)
      .then((choice) => (choice === review ? this.reviewAndSend(document) : choice === mount ? this.addMount(document) : undefined));
    return document;
  }

  /**
   * Adds a NAS mount to the configuration being edited: an Active volume in the task's region and a
   * target directory (nas_storage_config, docs/nas.md). Nothing is sent: the review comes after.
   * `choice` skips the questions (tests).
   */
  async addMount(document = vscode.window.activeTextEditor?.document, choice?: { storageId: number; targetDir: string }): Promise<'added' | 'cancelled' | 'none'> {
    const pending = document ? this.pending.get(document.uri.toString()) : undefined;
    if (!pending || !document) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a task configuration with "Update Task Configuration…" first.'));
      return 'none';
    }
    const regionName = pending.original.resources[0]?.region_name ?? '';
    const volumes = mountableVolumes(await this.state.items(VOLUME_STATE), regionName);
    let storageId = choice?.storageId;
    let targetDir = choice?.targetDir;
    if (storageId === undefined && volumes.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No Active NAS volume in {0}: a task mounts only volumes of its own region. Create one in the NAS view.', regionName));
      return 'cancelled';
    }
    if (storageId !== undefined && !volumes.some((volume) => volume.storage_id === storageId)) {
      throw new Refusal(vscode.l10n.t('NAS volume {0} is not Active in {1}: a task mounts only Active volumes of its own region.', storageId, regionName));
    }
    // The questions (volume, then where it goes) as one flow with Back; `choice` answers them (tests).
    const title = vscode.l10n.t('Mount a NAS volume in "{0}"', pending.original.task_name);
    const totalSteps = choice?.storageId === undefined ? 2 : 1;
    const askVolume: Step = async (input) => {
      const picked = await input.showQuickPick({
        title,
        step: 1,
        totalSteps,
        items: volumes.map((volume) => ({ label: volume.name, description: vscode.l10n.t('{0} · {1} GiB · id {2}', volume.region.name, formatGiB(volume.total_size), volume.storage_id), volume })),
        placeholder: vscode.l10n.t('NAS volume to mount (Active, in {0})', regionName),
      });
      storageId = picked.volume.storage_id;
      return targetDir === undefined ? askTargetDir : undefined;
    };
    const askTargetDir: Step = async (input) => {
      targetDir = await input.showInputBox({
        title,
        step: totalSteps,
        totalSteps,
        value: DEFAULT_TARGET_DIR,
        prompt: vscode.l10n.t('Where the volume is mounted in the container (an absolute path)'),
        validate: (value) => targetDirText(targetDirProblem(value.trim())),
      });
    };
    const first = storageId === undefined ? askVolume : targetDir === undefined ? askTargetDir : undefined;
    if (first && !(await MultiStepInput.run(first))) return 'cancelled';
    if (storageId === undefined || targetDir === undefined) return 'cancelled';
    const problem = targetDirText(targetDirProblem(targetDir.trim()));
    if (problem) throw new Error(problem);
    let text: string;
    try {
      text = addMountToConfig(document.getText(), { storage_id: storageId, target_dir: normalTargetDir(targetDir.trim()) });
    } catch {
      throw new Refusal(vscode.l10n.t('The configuration is not a task configuration with services; fix the JSON first.'));
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    await vscode.workspace.applyEdit(edit);
    return 'added';
  }

  /** Shows the diff and asks; sends only after "Send Update". `confirm` false is for tests. */
  async reviewAndSend(document = vscode.window.activeTextEditor?.document, confirm = true): Promise<'sent' | 'cancelled' | 'unchanged' | 'invalid' | 'none'> {
    const pending = document ? this.pending.get(document.uri.toString()) : undefined;
    if (!pending || !document) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a task configuration with "Update Task Configuration…" first.'));
      return 'none';
    }
    const profile = this.services.profiles.active;
    if (!profile || profile.id !== pending.profileId) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The active profile changed since this configuration was opened: open it again from the task.'));
      return 'cancelled';
    }
    const review = reviewUpdate(pending.original, document.getText());
    if (review.kind === 'invalid') {
      this.services.reportError(new Refusal(vscode.l10n.t('The configuration is not valid JSON: {0}', review.message)), vscode.l10n.t('Send a task update'));
      return 'invalid';
    }
    if (review.kind === 'unchanged') {
      void vscode.window.showInformationMessage(vscode.l10n.t('Nothing changed: no update sent.'));
      return 'unchanged';
    }
    if (confirm) {
      const before = await vscode.workspace.openTextDocument({ language: 'json', content: documentText(`${JSON.stringify(pending.original, null, 2)}\n`, 'json') });
      await vscode.commands.executeCommand('vscode.diff', before.uri, document.uri, vscode.l10n.t('Task {0}: current ↔ update', pending.taskId));
      const shown = [...review.lines.slice(0, 12), ...(review.lines.length > 12 || review.truncated ? [vscode.l10n.t('…and more (see the diff)')] : [])];
      const go = await confirmSpend({
        title: vscode.l10n.t('Update "{0}" on {1}profile "{2}"? This replaces the whole task configuration; a running task restarts its nodes.', pending.original.task_name, profile.environment === 'prod' ? 'PRODUCTION ' : '', profile.label),
        go: { label: vscode.l10n.t('Send Update') },
        placeholder: vscode.l10n.t('Review: pick Send Update, or Cancel'),
        lines: shown,
      });
      if (!go) return 'cancelled';
    }
    await this.tasks.update(review.body);
    this.services.logger.info(`Updated task ${pending.taskId} (${review.lines.length} change(s)).`);
    this.pending.delete(document.uri.toString());
    return 'sent';
  }
}
