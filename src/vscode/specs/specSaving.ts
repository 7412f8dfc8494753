// Save as Spec File… on a live task or job: every env value becomes a stored-secret reference unless the
// user picks it to stay plain (docs/specs.md), the file is written in the format its name asks for, and a
// note says what was stored and what a spec cannot express.

import * as vscode from 'vscode';
import type { KeepPlain, LiveEnvChoice } from '../../core/specs/fromLive';
import { specsCore } from '../../core/specs/load';
import type { Spec, SpecFormat } from '../../core/specs/types';
import { safeFileName } from '../../core/safeFileName';
import { jobServiceOf, taskServiceOf } from '../client/computeServices';
import type { ExtensionServices as Services } from '../services';
import { counted } from '../ui/counts';
import type { SpecSecrets } from './specSecrets';

/** What one kind (task or job) gives the shared save flow. */
interface SavedFrom {
  name: string;
  fileName: string;
  choices: readonly LiveEnvChoice[];
  spec(keepPlain: KeepPlain): { spec: Spec; secrets: readonly { name: string; value: string }[]; dropped: readonly string[] };
  filterLabel: string;
  title: string;
  /** The notification once saved, before the notes. */
  saved(relativePath: string): string;
  droppedNote(fields: string): string;
  extraNotes: string[];
}

export class SpecSaving {
  constructor(
    private readonly services: Services,
    private readonly secrets: SpecSecrets,
  ) {}

  /** Saves a job as a spec file. */
  async fromJob(jobId: number, target?: vscode.Uri, plain?: readonly string[]): Promise<vscode.Uri | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const detail = await jobServiceOf(this.services).detail(jobId);
    return this.save(
      {
        name: detail.task_name,
        fileName: `${safeFileName(detail.task_name, 'job')}.job.json`,
        choices: specsCore().jobEnvChoices(detail),
        spec: (keepPlain) => specsCore().specFromJob(detail, profile.id, { keepPlain }),
        filterLabel: vscode.l10n.t('Job spec'),
        title: vscode.l10n.t('Save job "{0}" as a spec file', detail.task_name),
        saved: (path) => vscode.l10n.t('Saved job {0} as {1}. Jobs cannot be updated: Deploy from this file creates a new job once "taskId" is removed.', jobId, path),
        droppedNote: (fields) => vscode.l10n.t('Not expressible in a spec (left out): {0}.', fields),
        extraNotes: detail.services?.some((service) => service.repository_account) ? [vscode.l10n.t('The registry password is never returned: add it as a secret reference before deploying.')] : [],
      },
      target,
      plain,
    );
  }

  /** Saves a live task as a spec file. */
  async fromTask(taskId: number, target?: vscode.Uri, plain?: readonly string[]): Promise<vscode.Uri | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const detail = await taskServiceOf(this.services).detail(taskId);
    return this.save(
      {
        name: detail.task_name,
        fileName: `${safeFileName(detail.task_name, 'task')}.task.json`,
        choices: specsCore().taskEnvChoices(detail),
        spec: (keepPlain) => specsCore().specFromTask(detail, profile.id, { keepPlain }),
        filterLabel: vscode.l10n.t('Task spec'),
        title: vscode.l10n.t('Save task "{0}" as a spec file', detail.task_name),
        saved: (path) => vscode.l10n.t('Saved task {0} as {1}.', taskId, path),
        droppedNote: (fields) => vscode.l10n.t('Not expressible in a spec (an update from this file would reset them): {0}.', fields),
        extraNotes: [],
      },
      target,
      plain,
    );
  }

  /** Writes a spec file text to `uri` and opens it. */
  async write(uri: vscode.Uri, spec: Spec): Promise<void> {
    const format: SpecFormat = uri.path.endsWith('.yaml') || uri.path.endsWith('.yml') ? 'yaml' : 'json';
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(specsCore().specFileText(spec, format)));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  }

  private async save(from: SavedFrom, target: vscode.Uri | undefined, plain: readonly string[] | undefined): Promise<vscode.Uri | undefined> {
    const keepPlain = await this.keepPlain(from.choices, plain);
    if (!keepPlain) return undefined;
    const saved = from.spec(keepPlain);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? (await vscode.window.showSaveDialog({ ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, from.fileName) } : {}), filters: { [from.filterLabel]: ['json', 'yaml'] }, title: from.title }));
    if (!uri) return undefined;
    for (const secret of saved.secrets) await this.secrets.store(secret.name, secret.value);
    await this.write(uri, saved.spec);
    const notes: string[] = [];
    if (saved.secrets.length > 0) notes.push(vscode.l10n.t('{0}: stored as spec secrets and referenced by name.', counted(saved.secrets.length, 'credentialValue')));
    if (saved.dropped.length > 0) notes.push(from.droppedNote(saved.dropped.join(', ')));
    notes.push(...from.extraNotes);
    void vscode.window.showInformationMessage([from.saved(vscode.workspace.asRelativePath(uri)), ...notes].join(' '));
    return uri;
  }

  /**
   * Which env values stay plain in a saved file: the user picks them (none picked by default, so every
   * value becomes a stored-secret reference); `plain` answers without asking ("NAME" or "service/NAME").
   * Undefined when the user backs out.
   */
  private async keepPlain(choices: readonly LiveEnvChoice[], plain: readonly string[] | undefined): Promise<KeepPlain | undefined> {
    const key = (service: number, name: string) => `${service}\u0000${name}`;
    let kept: Set<string>;
    if (plain) kept = new Set(choices.filter((choice) => plain.includes(choice.name) || plain.includes(`${choice.serviceName}/${choice.name}`)).map((choice) => key(choice.service, choice.name)));
    else if (choices.length === 0) kept = new Set();
    else {
      const many = new Set(choices.map((choice) => choice.serviceName)).size > 1;
      const picked = await vscode.window.showQuickPick(
        choices.map((choice) => ({
          label: specsCore().shownValue(many ? `${choice.serviceName}/${choice.name}` : choice.name, 120),
          ...(choice.looksSecret ? { description: vscode.l10n.t('looks like a credential') } : {}),
          picked: false,
          choice,
        })),
        {
          canPickMany: true,
          ignoreFocusOut: true,
          title: vscode.l10n.t('Env values to write into the file as plain text'),
          placeHolder: vscode.l10n.t('Pick the values that may be in the file (and in git). The rest are stored as spec secrets and referenced by name.'),
        },
      );
      if (!picked) return undefined;
      kept = new Set(picked.map((item) => key(item.choice.service, item.choice.name)));
    }
    return (service, name) => kept.has(key(service, name));
  }
}
