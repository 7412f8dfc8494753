// Spec files in the editor: diagnostics as they are opened and edited (schema and units, from the
// one validator in src/core/specs), platform findings put on the field they concern until the file
// changes, and the CodeLens row (Validate, Plan, Deploy or Update, Open Live, Stop) on the first line.
// In a *.json spec VS Code's own JSON validation (the contributed schema) already reports syntax and
// schema problems, so those of ours are left out (each problem shows once); what ours know more —
// the field a typo meant, a memory in Mi — comes as a Quick Fix on the same place. The validator (ajv,
// yaml) loads with the first spec file the editor sees (specsCore()), not at activation.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { specFormatOf, type SpecDiagnostic, type SpecFormat } from '../../core/specs/types';
import { specsCore } from '../../core/specs/load';
import type { SpecValidation } from '../../core/specs/validate';
import { LOCALIZED_SPEC_MESSAGES } from './specMessages';

const DEBOUNCE_MS = 250;

export function isSpecDocument(document: vscode.TextDocument): boolean {
  return document.uri.scheme !== 'compute-toolkit' && specFormatOf(document.uri.path) !== undefined;
}

export function formatOf(document: vscode.TextDocument): SpecFormat {
  return specFormatOf(document.uri.path) ?? 'json';
}

const SEVERITY: Record<SpecDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toDiagnostic(item: SpecDiagnostic, source: string): vscode.Diagnostic {
  const range = new vscode.Range(item.start.line, item.start.character, item.end.line, Math.max(item.end.character, item.start.line === item.end.line ? item.start.character + 1 : item.end.character));
  const diagnostic = new vscode.Diagnostic(range, item.message, SEVERITY[item.severity]);
  diagnostic.source = source;
  return diagnostic;
}

export class SpecDocuments implements vscode.CodeLensProvider, vscode.CodeActionProvider, vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('compute-spec');
  private readonly platformFindings = new Map<string, { version: number; diagnostics: vscode.Diagnostic[] }>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor() {
    const selector: vscode.DocumentSelector = [
      { scheme: 'file', pattern: '**/*.{task,job}.{json,yaml,yml}' },
      { scheme: 'untitled', pattern: '**/*.{task,job}.{json,yaml,yml}' },
    ];
    this.disposables.push(
      this.collection,
      this.lensesChanged,
      vscode.languages.registerCodeLensProvider(selector, this),
      vscode.languages.registerCodeActionsProvider(selector, this, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
      vscode.workspace.onDidOpenTextDocument((document) => this.check(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.collection.delete(document.uri);
        this.platformFindings.delete(document.uri.toString());
      }),
    );
    for (const document of vscode.workspace.textDocuments) this.check(document);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isSpecDocument(document)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.check(document);
    }, DEBOUNCE_MS));
  }

  /** Validates now and publishes the diagnostics; returns the validation (undefined for other files). */
  check(document: vscode.TextDocument): SpecValidation | undefined {
    if (!isSpecDocument(document)) return undefined;
    const specs = specsCore();
    const validation = specs.validateSpecText(document.getText(), formatOf(document), LOCALIZED_SPEC_MESSAGES);
    const findings = this.platformFindings.get(document.uri.toString());
    const platform = findings && findings.version === document.version ? findings.diagnostics : [];
    const format = formatOf(document);
    const own = validation.diagnostics.filter((item) => !specs.editorRepeats(item, format));
    this.collection.set(document.uri, [...own.map((item) => toDiagnostic(item, vscode.l10n.t('Compute spec'))), ...platform]);
    this.lensesChanged.fire();
    return validation;
  }

  /** Findings from the platform (Validate, a refused Deploy/Update) on their fields, until the file changes. */
  setPlatformFindings(document: vscode.TextDocument, diagnostics: vscode.Diagnostic[]): void {
    this.platformFindings.set(document.uri.toString(), { version: document.version, diagnostics });
    this.check(document);
  }

  /** Quick Fixes from our findings (shown or left to the JSON service): the field a typo meant, memory in Mi. */
  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    if (!isSpecDocument(document)) return [];
    const actions: vscode.CodeAction[] = [];
    for (const item of specsCore().validateSpecText(document.getText(), formatOf(document), LOCALIZED_SPEC_MESSAGES).diagnostics) {
      if (!item.fix) continue;
      const target = new vscode.Range(item.start.line, item.start.character, item.end.line, item.end.character);
      if (!target.intersection(range)) continue;
      const title = item.fix.kind === 'rename' ? vscode.l10n.t('Change to "{0}"', item.fix.value) : vscode.l10n.t('Write {0} (Mi)', item.fix.value);
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(document.uri, target, item.fix.text);
      action.isPreferred = true;
      actions.push(action);
    }
    return actions;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!isSpecDocument(document)) return [];
    const validation = specsCore().validateSpecText(document.getText(), formatOf(document));
    const value = validation.value as { kind?: unknown; taskId?: unknown } | undefined;
    const top = new vscode.Range(0, 0, 0, 0);
    const lens = (title: string, command: string, tooltip: string): vscode.CodeLens => new vscode.CodeLens(top, { title, command, tooltip, arguments: [document.uri] });
    const lenses = [lens(vscode.l10n.t('$(check) Validate'), Commands.specValidate, vscode.l10n.t('Check the file and, on the platform, the resource, its stock and NAS volumes'))];
    if (value?.kind === 'job') {
      // Jobs cannot be updated on the platform: Plan says what Deploy would create; a deployed file opens or stops its job.
      lenses.push(lens(vscode.l10n.t('$(diff) Plan'), Commands.specPlan, vscode.l10n.t('What Deploy would create, and its cost per hour and at most')));
      if (typeof value.taskId === 'number') {
        lenses.push(
          lens(vscode.l10n.t('$(link-external) Open Live'), Commands.specOpenLive, vscode.l10n.t('Show the job this file created')),
          lens(vscode.l10n.t('$(debug-stop) Stop'), Commands.specStop, vscode.l10n.t('Stop the job this file created (confirmed; a job cannot be resumed)')),
        );
      } else lenses.push(lens(vscode.l10n.t('$(rocket) Deploy'), Commands.specDeploy, vscode.l10n.t('Create the job (confirmed, with its cost); the file remembers its id')));
      return lenses;
    }
    lenses.push(lens(vscode.l10n.t('$(diff) Plan'), Commands.specPlan, vscode.l10n.t('Compare the live task with this file: changes, resets and cost')));
    if (typeof value?.taskId === 'number') {
      lenses.push(
        lens(vscode.l10n.t('$(cloud-upload) Update'), Commands.specUpdate, vscode.l10n.t('Overwrite the live task with this file (after a plan, confirmed)')),
        lens(vscode.l10n.t('$(link-external) Open Live'), Commands.specOpenLive, vscode.l10n.t('Show the live task')),
        lens(vscode.l10n.t('$(debug-stop) Stop'), Commands.specStop, vscode.l10n.t('Stop (delete) the live task')),
      );
    } else lenses.push(lens(vscode.l10n.t('$(rocket) Deploy'), Commands.specDeploy, vscode.l10n.t('Create the task; the file remembers its id')));
    return lenses;
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
