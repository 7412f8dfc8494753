// Compare with a Failing Request: what the user copied from a failing request (clipboard, the editor
// selection, or a command argument) against what this profile would send for the same request, in a
// read-only document that points at the first difference.

import * as vscode from 'vscode';
import type { OperationId, OperationParams, PreparedRequest } from '../../core/compute/api';
import { comparePasted, type SignComparison } from '../../core/requests/signCompare';
import type { ExtensionServices as Services } from '../services';
import { differenceText, differenceWhere, renderComparison } from './renderComparison';
import { describeRequest, parseRequestArgument, type RequestInput } from './requestInput';
import { promptRequest } from './requestWizard';
import { lastSignedInput, wizardTitle } from './signRequestController';

export interface CompareResult {
  comparison: SignComparison;
  text: string;
  uri: vscode.Uri;
}

export const COMPARE_DOCUMENT = { key: 'sign-request-compare', title: vscode.l10n.t('Sign Request Comparison.md') } as const;

export class CompareController {
  constructor(private readonly services: Services) {}

  /** Argument (tests, other commands): `{ pasted?: string, request?: <Sign Request argument> }`. */
  async compare(argument: unknown): Promise<CompareResult | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const client = this.services.computeClient();
    const given = (typeof argument === 'object' && argument !== null ? argument : {}) as { pasted?: unknown; request?: unknown };
    const input = await this.resolveInput(given.request, wizardTitle(vscode.l10n.t('Compare with a Failing Request'), profile));
    if (!input) return undefined;
    const pasted = typeof given.pasted === 'string' ? given.pasted : await askForPaste();
    if (pasted === undefined) return undefined;
    const prepared = await prepare(this.services, input);
    const token = (await this.services.profiles.getSecret(profile.id, 'apiToken')) ?? '';
    const comparison = comparePasted(
      pasted,
      {
        path: prepared.pathWithQuery,
        version: prepared.version,
        timestamp: prepared.timestamp,
        token,
        body: prepared.body,
        mode: prepared.mode,
        method: prepared.method,
        secrets: token === '' ? [] : [token],
        encrypted: prepared.encrypted,
      },
      Date.now(),
    );
    const text = renderComparison(comparison, prepared, describeRequest(input, client.operations));
    const editor = await this.services.openReadOnlyDocument({ ...COMPARE_DOCUMENT, language: 'markdown', content: () => Promise.resolve(text) });
    const first = comparison.first;
    void vscode.window.showInformationMessage(
      first ? vscode.l10n.t('First difference ({0}): {1}', differenceWhere(first).text, differenceText(first)) : vscode.l10n.t('No difference found: see the comparison for notes.'),
    );
    return { comparison, text: editor.document.getText(), uri: editor.document.uri };
  }

  private async resolveInput(argument: unknown, title: string): Promise<RequestInput | undefined> {
    const client = this.services.computeClient();
    const parsed = parseRequestArgument(argument, client.operations);
    if (parsed?.kind === 'operation' || parsed?.kind === 'raw') return parsed;
    if (parsed?.kind === 'pick-params') return promptRequest(title, client.operations, parsed.operation);
    return lastSignedInput() ?? promptRequest(title, client.operations);
  }
}

async function askForPaste(): Promise<string | undefined> {
  const clipboard = vscode.l10n.t('From the clipboard');
  const selection = vscode.l10n.t('From the selection in the editor');
  const source = await vscode.window.showQuickPick([clipboard, selection], {
    title: vscode.l10n.t('Compare with a Failing Request'),
    placeHolder: vscode.l10n.t('Copy the string to sign, the sign_str, the request headers, a curl command or the server reply first'),
  });
  if (source === clipboard) return vscode.env.clipboard.readText();
  if (source === selection) {
    const editor = vscode.window.activeTextEditor;
    const text = editor ? editor.document.getText(editor.selection) : '';
    if (text === '') void vscode.window.showWarningMessage(vscode.l10n.t('Select the text of the failing request in an editor first.'));
    return text === '' ? undefined : text;
  }
  return undefined;
}

function prepare(services: Services, input: RequestInput): Promise<PreparedRequest> {
  const client = services.computeClient();
  if (input.kind === 'raw') return client.prepareRaw(input.request);
  return client.prepare(input.operation, input.params as OperationParams<OperationId>, input.encrypt === undefined ? {} : { encrypt: input.encrypt });
}
