// Spec files in the editor: diagnostics as they are opened and edited (schema and units, from the
// one validator in src/core/specs), platform findings put on the field they concern until the file
// changes, and the CodeLens row (Validate, Plan, Deploy or Update, Open Live, Stop) on the first line.
// In a *.json spec VS Code's own JSON validation (the contributed editor schema) reports syntax and
// the simple schema problems, so those of ours are left out (each problem shows once); missing and
// unknown fields and memory units are ours, with the hint in the message and as a Quick Fix
// (src/core/specs/editorOverlap.ts). Parsing and validating run on a worker thread, one check per
// document version: a hostile file never holds up the extension host (docs/security.md).

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { editorRepeats } from '../../core/specs/editorOverlap';
import { MAX_SPEC_CHARS, specFormatOf, type SpecDiagnostic, type SpecFormat } from '../../core/specs/types';
import type { SpecTextCheck } from '../../core/specs/workerProtocol';
import { WorkerValidator } from '../../core/specs/workerValidator';
import { ENGLISH as ENGLISH_SPEC_MESSAGES } from '../../core/specs/messages';
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

/** A document's length without reading its text (a huge file is refused by size alone). */
function documentLength(document: vscode.TextDocument): number {
  return document.offsetAt(new vscode.Position(document.lineCount, 0));
}

/** The refusal of a text over the size cap, on (the start of) its first line. */
function tooLarge(document: vscode.TextDocument): SpecTextCheck {
  const end = { line: 0, character: Math.min(document.lineAt(0).range.end.character, 200) };
  return { valid: false, diagnostics: [{ start: { line: 0, character: 0 }, end, message: LOCALIZED_SPEC_MESSAGES.tooLarge(MAX_SPEC_CHARS / 1024), severity: 'error', path: '' }] };
}

/** Preheat (docs/platform.md "Image preheat"): the spec's images cached in its region before Deploy. */
function preheatLens(value: SpecTextCheck | undefined): vscode.CodeLens[] {
  if (!value?.images?.length) return [];
  const target = { images: value.images, ...(value.region === undefined ? {} : { region: value.region }) };
  const tooltip = vscode.l10n.t('Cache the image in the image cache of its region before a start needs it (the start skips the pull)');
  return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: vscode.l10n.t('$(flame) Preheat'), command: Commands.preheatOffer, tooltip, arguments: [target] })];
}

export class SpecDocuments implements vscode.CodeLensProvider, vscode.CodeActionProvider, vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('compute-spec');
  private readonly platformFindings = new Map<string, { version: number; diagnostics: vscode.Diagnostic[] }>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly checks = new Map<string, { version: number; check: Promise<SpecTextCheck> }>();
  private readonly validator: WorkerValidator;
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  /** `workerScript`: the validation worker's file (dist/specWorker.js). */
  constructor(workerScript: string) {
    this.validator = new WorkerValidator(workerScript);
    const selector: vscode.DocumentSelector = [
      { scheme: 'file', pattern: '**/*.{task,job}.{json,yaml,yml}' },
      { scheme: 'untitled', pattern: '**/*.{task,job}.{json,yaml,yml}' },
    ];
    this.disposables.push(
      this.collection,
      this.lensesChanged,
      vscode.languages.registerCodeLensProvider(selector, this),
      vscode.languages.registerCodeActionsProvider(selector, this, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
      vscode.workspace.onDidOpenTextDocument((document) => void this.check(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        const key = document.uri.toString();
        this.collection.delete(document.uri);
        this.platformFindings.delete(key);
        this.checks.delete(key);
        clearTimeout(this.timers.get(key));
        this.timers.delete(key);
      }),
    );
    for (const document of vscode.workspace.textDocuments) void this.check(document);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isSpecDocument(document)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.check(document);
    }, DEBOUNCE_MS));
  }

  /** The check of the document's current text: one per version, on the worker (undefined for other files). */
  checked(document: vscode.TextDocument): Promise<SpecTextCheck> | undefined {
    if (!isSpecDocument(document)) return undefined;
    const key = document.uri.toString();
    const known = this.checks.get(key);
    if (known && known.version === document.version) return known.check;
    const check = documentLength(document) > MAX_SPEC_CHARS ? Promise.resolve(tooLarge(document)) : this.validator.validate(document.getText(), formatOf(document), LOCALIZED_SPEC_MESSAGES);
    this.checks.set(key, { version: document.version, check });
    // A failed check is not kept: the next request asks a fresh worker.
    check.catch(() => {
      if (this.checks.get(key)?.check === check) this.checks.delete(key);
    });
    return check;
  }

  /** Checks now and publishes the diagnostics (unless the text changed meanwhile); returns the check (undefined for other files). */
  /** A spec text checked on the worker, in the agent tools' words (English, as every tool result). */
  checkText(text: string, format: SpecFormat): Promise<SpecTextCheck> {
    return this.validator.validate(text, format, ENGLISH_SPEC_MESSAGES);
  }

  async check(document: vscode.TextDocument): Promise<SpecTextCheck | undefined> {
    const version = document.version;
    const check = await this.checked(document);
    if (!check || document.isClosed || document.version !== version) return check;
    const findings = this.platformFindings.get(document.uri.toString());
    const platform = findings && findings.version === document.version ? findings.diagnostics : [];
    const format = formatOf(document);
    const own = check.diagnostics.filter((item) => !editorRepeats(item, format));
    this.collection.set(document.uri, [...own.map((item) => toDiagnostic(item, vscode.l10n.t('Compute spec'))), ...platform]);
    this.lensesChanged.fire();
    return check;
  }

  /** Findings from the platform (Validate, a refused Deploy/Update) on their fields, until the file changes. */
  setPlatformFindings(document: vscode.TextDocument, diagnostics: vscode.Diagnostic[]): void {
    this.platformFindings.set(document.uri.toString(), { version: document.version, diagnostics });
    void this.check(document);
  }

  /** Quick Fixes from our findings: the field a typo meant, memory in Mi. */
  async provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): Promise<vscode.CodeAction[]> {
    const check = await this.checked(document);
    if (!check) return [];
    const actions: vscode.CodeAction[] = [];
    for (const item of check.diagnostics) {
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

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const pending = this.checked(document);
    if (!pending) return [];
    const value = await pending.catch(() => undefined);
    return [...this.specLenses(document, value), ...preheatLens(value)];
  }

  private specLenses(document: vscode.TextDocument, value: SpecTextCheck | undefined): vscode.CodeLens[] {
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
    this.validator.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
