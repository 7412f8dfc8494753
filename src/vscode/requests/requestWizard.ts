// Asks for a request step by step (with Back): a catalog operation and its typed fields, or a
// hand-written method, path, query and JSON body; then whether to encrypt the body.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { operationTitle } from './operationTitles';
import type { HttpMethod, OperationId, OperationSpec } from '../../core/compute/api';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { METHODS, convertField, jsonBodyError, parseJsonBody, parseQuery, type RequestInput } from './requestInput';
import { errorText } from '../errors/errorText';

export interface Choice<T> extends vscode.QuickPickItem {
  value: T;
}

const RAW = 'raw';

/**
 * Runs the flow; `preselected` skips the first question (an error's "Open Sign Request" names the
 * operation that failed). Resolves undefined when the user cancels.
 */
export async function promptRequest(
  title: string,
  operations: readonly OperationSpec[],
  preselected?: OperationId,
): Promise<RequestInput | undefined> {
  let result: RequestInput | undefined;
  const pickTarget: Step = async (input) => {
    // No total yet: how many steps follow depends on the operation picked here.
    const picked = await input.showQuickPick({ title, step: 1, items: targetItems(operations), placeholder: vscode.l10n.t('Operation to sign') });
    if (picked.value === RAW) return rawSteps(title, (request) => (result = request));
    const spec = operations.find((candidate) => candidate.id === picked.value);
    return spec ? operationSteps(title, spec, 1, (request) => (result = request)) : undefined;
  };
  const start = preselected
    ? operationSteps(title, operations.find((spec) => spec.id === preselected) ?? throwUnknown(preselected), 0, (request) => (result = request))
    : pickTarget;
  return (await MultiStepInput.run(start)) ? result : undefined;
}

/** The first step's choices: every catalog operation, then a hand-written request. */
export function targetItems(operations: readonly OperationSpec[]): Choice<OperationId | typeof RAW>[] {
  return [
    ...operations.map((spec) => ({
      label: operationTitle(spec),
      description: `${spec.method} ${spec.path}`,
      detail: spec.id === 'task.detail' ? taskDetailPickerNote() : encryptionNote(spec.encryption),
      value: spec.id,
    })),
    { label: vscode.l10n.t('$(edit) Hand-written request…'), description: vscode.l10n.t('any method, path, query and JSON body'), value: RAW },
  ];
}

function encryptionNote(encryption: OperationSpec['encryption']): string | undefined {
  if (encryption === 'required') return vscode.l10n.t('body encryption required');
  if (encryption === 'optional') return vscode.l10n.t('body encryption optional');
  return undefined;
}

/** The picker lists the spec's POST; the platform answers GET, which the client signs once it learned that. */
function taskDetailPickerNote(): string {
  return vscode.l10n.t('POST per the spec; the platform answers only GET ?task_id=, so after its first refusal the profile signs GET (the document says which).');
}

/** A field's wire type in words. */
function fieldTypeName(type: OperationSpec['fields'][number]['type']): string {
  if (type === 'integer') return vscode.l10n.t('whole number');
  if (type === 'number') return vscode.l10n.t('number');
  return vscode.l10n.t('text');
}

function throwUnknown(id: string): never {
  throw new Refusal(vscode.l10n.t('Unknown operation "{0}"', id));
}

/** One step per field, an optional extra-JSON step for POST bodies, and the encryption choice. */
function operationSteps(title: string, spec: OperationSpec, stepsBefore: number, done: (input: RequestInput) => void): Step {
  const values = new Map<string, string>();
  let extraJson = '';
  let encrypt = spec.encryption === 'required';
  const hasExtra = spec.method === 'POST';
  const asksEncryption = spec.encryption === 'optional';
  const total = stepsBefore + spec.fields.length + (hasExtra ? 1 : 0) + (asksEncryption ? 1 : 0);

  const finish = (): void => {
    const params: Record<string, unknown> = {};
    for (const field of spec.fields) {
      const converted = convertField(field, values.get(field.name) ?? '');
      if (converted.value !== undefined) params[field.name] = converted.value;
    }
    const extra = parseJsonBody(extraJson);
    // Typed fields win over the same names in the extra JSON: they were validated one by one.
    done({ kind: 'operation', operation: spec.id, params: { ...(extra as Record<string, unknown> | undefined), ...params }, encrypt });
  };

  const encryptionStep: Step = async (input) => {
    const picked = await input.showQuickPick<Choice<boolean>>({
      title,
      step: total,
      totalSteps: total,
      items: [
        { label: vscode.l10n.t('Plain JSON body'), value: false },
        { label: vscode.l10n.t('Encrypt the body'), description: vscode.l10n.t('with the platform public key, then sign the Base64'), value: true },
      ],
      placeholder: vscode.l10n.t('{0}: encryption is optional', operationTitle(spec)),
    });
    encrypt = picked.value;
    finish();
  };
  const extraStep: Step = async (input) => {
    extraJson = await input.showInputBox({
      title,
      step: stepsBefore + spec.fields.length + 1,
      totalSteps: total,
      value: extraJson,
      prompt:
        spec.id === 'task.create'
          ? vscode.l10n.t('Also required: "resources" and "services" arrays as JSON, e.g. {"resources":[…],"services":[…]} (Create Task builds them for you)')
          : vscode.l10n.t('More body fields as a JSON object (optional)'),
      placeholder: '{}',
      validate: (text) => jsonBodyError(text, true),
    });
    if (asksEncryption) return encryptionStep;
    finish();
    return undefined;
  };
  const fieldStep = (index: number): Step => async (input) => {
    const field = spec.fields[index];
    if (!field) {
      if (hasExtra) return extraStep;
      if (asksEncryption) return encryptionStep;
      finish();
      return undefined;
    }
    const text = await input.showInputBox({
      title,
      step: stepsBefore + index + 1,
      totalSteps: total,
      // Required list parameters start from the value the platform's docs show.
      value: values.get(field.name) ?? field.example ?? '',
      prompt: field.required
        ? vscode.l10n.t('{0}: {1} ({2}, required)', operationTitle(spec), field.name, fieldTypeName(field.type))
        : vscode.l10n.t('{0}: {1} ({2}, optional: leave empty to omit)', operationTitle(spec), field.name, fieldTypeName(field.type)),
      password: field.secret === true,
      validate: (value) => convertField(field, value).error,
    });
    values.set(field.name, text);
    return fieldStep(index + 1);
  };
  return fieldStep(0);
}

/** Method, path, query, body (POST), encryption (POST). */
function rawSteps(title: string, done: (input: RequestInput) => void): Step {
  let method: HttpMethod = 'GET';
  let path = '/api/';
  let query = '';
  let body = '';
  const total = (): number => (method === 'POST' ? 6 : 4);

  const finish = (encrypt: boolean): void => {
    const parsedBody = method === 'POST' ? parseJsonBody(body) : undefined;
    done({
      kind: 'raw',
      request: {
        method,
        path: path.trim(),
        query: parseQuery(query),
        ...(parsedBody !== undefined ? { body: parsedBody } : {}),
        ...(encrypt ? { encrypt } : {}),
      },
    });
  };
  const encryptionStep: Step = async (input) => {
    const picked = await input.showQuickPick<Choice<boolean>>({
      title,
      step: 6,
      totalSteps: 6,
      items: [
        { label: vscode.l10n.t('Plain JSON body'), value: false },
        { label: vscode.l10n.t('Encrypt the body'), description: vscode.l10n.t('with the platform public key, then sign the Base64'), value: true },
      ],
      placeholder: vscode.l10n.t('Encrypt the body?'),
    });
    finish(picked.value);
  };
  const bodyStep: Step = async (input) => {
    body = await input.showInputBox({
      title,
      step: 5,
      totalSteps: 6,
      value: body,
      prompt: vscode.l10n.t('JSON body (sent compact; leave empty for no body, signed as the empty string)'),
      validate: (text) => jsonBodyError(text, false),
    });
    if (body.trim() !== '') return encryptionStep;
    finish(false);
    return undefined;
  };
  const queryStep: Step = async (input) => {
    query = await input.showInputBox({
      title,
      step: 4,
      totalSteps: total(),
      value: query,
      prompt: vscode.l10n.t('Query string without "?", e.g. task_id=123&status=Running (optional; each part is %-encoded once)'),
      validate: (text) => {
        try {
          parseQuery(text);
          return undefined;
        } catch (error) {
          return errorText(error);
        }
      },
    });
    if (method === 'POST') return bodyStep;
    finish(false);
    return undefined;
  };
  const pathStep: Step = async (input) => {
    path = await input.showInputBox({
      title,
      step: 3,
      totalSteps: total(),
      value: path,
      prompt: vscode.l10n.t('Path starting with /api/ (without the base address and without ?query)'),
      validate: (text) =>
        !text.trim().startsWith('/')
          ? vscode.l10n.t('The path starts with "/".')
          : /[?#]/.test(text)
            ? vscode.l10n.t('Put the query in the next step.')
            : undefined,
    });
    return queryStep;
  };
  return async (input) => {
    const picked = await input.showQuickPick<Choice<HttpMethod>>({
      title,
      step: 2,
      totalSteps: total(),
      items: METHODS.map((value) => ({ label: value, value })),
      placeholder: vscode.l10n.t('Method'),
    });
    method = picked.value;
    return pathStep;
  };
}
