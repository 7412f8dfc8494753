// "Check Storage Credentials…": asks for the fields the catalog declares for the check. A storage row
// (or one picked from the listed storages) fills in every field the platform knows, so the user answers
// one masked step: the access and secret keys, typed together. Only "by hand" asks for the storage's
// fields first. Sends the encrypted check and shows pass/fail with the server's message. The keys live only in this function's locals: never logged,
// stored, or shown.
import { Commands } from '../commandIds';
import * as vscode from 'vscode';
import { abortSignalFor } from '../ui/cancellation';
import type { OperationSpec, StorageCheckBody, StorageItem } from '../../core/compute/api';
import { isAbort } from '../../core/errors';
import { maskSecret } from '../../core/log';
import { isApiFailure } from '../errors/describeError';
import { computeCore } from '../lazyCore';
import { storageServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { StorageRow, storageLocation, storageStateName } from './storageTree';
import { splitKeyPair } from './storageValues';

export interface StorageCheckResult {
  pass: boolean;
  message: string | undefined;
}

/** The platform's sibling check answers `{pass, message}`; a plain success envelope means pass. */
export function interpretCheckResult(data: unknown): StorageCheckResult {
  if (typeof data === 'object' && data !== null && typeof (data as { pass?: unknown }).pass === 'boolean') {
    const { pass, message } = data as { pass: boolean; message?: unknown };
    return { pass, message: typeof message === 'string' && message.length > 0 ? message : undefined };
  }
  return { pass: true, message: undefined };
}

/** Sends the check (encrypted, as the platform requires). An envelope failure is a "fail" with its message. */
export async function checkStorage(services: ExtensionServices, body: StorageCheckBody, signal?: AbortSignal): Promise<StorageCheckResult> {
  try {
    const data = await storageServiceOf(services).encryptCheck(body, signal);
    return interpretCheckResult(data);
  } catch (error) {
    // The platform rejected the bucket/keys (not our signature or token): that is the answer.
    if (isApiFailure(error) && error.kind === 'api') return { pass: false, message: error.serverMessage || vscode.l10n.t('code {0}', error.code) };
    throw error;
  }
}

/** Server text can echo what it was sent: mask the keys the user just typed (the Redactor does not know them). */
function maskKeys(text: string, body: StorageCheckBody): string {
  let out = text;
  for (const key of [body.secret_key, body.access_key]) if (key.length > 0) out = out.split(key).join(maskSecret(key));
  return out;
}

type CheckField = OperationSpec['fields'][number];

/** The wording of each step; the field's name stands in for a field the catalog adds later. */
function fieldHint(name: string): { prompt: string; placeholder?: string } {
  switch (name) {
    case 'storage_name':
      return { prompt: vscode.l10n.t('Storage name') };
    case 'juicefs_region_id':
      return { prompt: vscode.l10n.t('Storage region id (juicefs_region_id, an integer)') };
    case 'bucket':
      return { prompt: vscode.l10n.t('Bucket') };
    case 'dir':
      return { prompt: vscode.l10n.t('Directory in the bucket'), placeholder: vscode.l10n.t('e.g. models/') };
    case 'endpoint':
      return { prompt: vscode.l10n.t('Endpoint (storage service host name)'), placeholder: vscode.l10n.t('e.g. tos-cn-beijing.volces.com') };
    case 'access_key':
      return { prompt: vscode.l10n.t('Access key') };
    case 'secret_key':
      return { prompt: vscode.l10n.t('Secret key') };
    default:
      return { prompt: name };
  }
}

/** The catalog's rule for one field, as the input box shows it. */
export function validateField(field: CheckField, value: string, label: string): string | undefined {
  const text = value.trim();
  if (text.length === 0) return field.required ? vscode.l10n.t('Enter the {0}.', label) : undefined;
  if (field.type === 'integer' && !/^\d+$/.test(text)) return vscode.l10n.t('Enter the {0} as a whole number.', label);
  if (field.type === 'number' && !Number.isFinite(Number(text))) return vscode.l10n.t('Enter the {0} as a number.', label);
  return undefined;
}

/** The request body from the answers, typed as the catalog declares each field. */
function checkBody(specFields: readonly CheckField[], answers: Record<string, string>): StorageCheckBody {
  const body: Record<string, string | number> = {};
  for (const field of specFields) {
    const text = (answers[field.name] ?? '').trim();
    body[field.name] = field.type === 'string' ? text : Number(text);
  }
  return body as unknown as StorageCheckBody;
}

/** What is wrong with the key pair typed so far, for the input's validation line. */
function keyPairProblem(text: string): string | undefined {
  const pair = splitKeyPair(text);
  if (pair === 'empty') return vscode.l10n.t('Enter the access key, a space, then the secret key.');
  if (pair === 'one') return vscode.l10n.t('Add the secret key after a space.');
  if (pair === 'many') return vscode.l10n.t('Only two keys: the access key and the secret key.');
  return undefined;
}

/** One input box: a catalog field, or the access and secret key together. */
type Question = { kind: 'field'; field: CheckField } | { kind: 'keyPair'; access: CheckField; secret: CheckField };

/**
 * What to ask: every field by hand; for a known storage only its secrets (and a required field it
 * left empty). The access and secret key share one box.
 */
export function checkQuestions(specFields: readonly CheckField[], answers: Record<string, string>, known: boolean): Question[] {
  const asked = known ? specFields.filter((field) => field.secret || (field.required && (answers[field.name] ?? '').trim() === '')) : specFields;
  const access = asked.find((field) => field.name === 'access_key' && field.secret);
  const secret = asked.find((field) => field.name === 'secret_key' && field.secret);
  const questions: Question[] = [];
  for (const field of asked) {
    if (access && secret && field === access) questions.push({ kind: 'keyPair', access, secret });
    else if (!(access && secret && field === secret)) questions.push({ kind: 'field', field });
  }
  return questions;
}

interface StorageChoice extends vscode.QuickPickItem {
  storage: StorageItem | undefined;
}

/** The first step from the palette: one of the listed storages (its fields prefilled), or all by hand. */
export function storageChoices(storages: readonly StorageItem[]): StorageChoice[] {
  return [
    ...storages.map((storage) => ({
      label: storage.storage_name,
      description: `${storageStateName(storage.status)} · ${storageLocation(storage) || vscode.l10n.t('no bucket')}`,
      detail: vscode.l10n.t('{0} · region id {1}', storage.endpoint || vscode.l10n.t('no endpoint'), storage.juicefs_region_id),
      storage,
    })),
    { label: vscode.l10n.t('$(edit) Enter the details by hand…'), storage: undefined },
  ];
}

export async function runStorageCheckWizard(
  services: ExtensionServices,
  arg?: unknown,
  listedStorages: () => Promise<readonly StorageItem[]> = () => Promise.resolve([]),
): Promise<void> {
  const profile = await services.requireProfile();
  if (!profile) return;
  if (profile.mode !== 'rsa') {
    // Asking for keys first and failing afterwards would waste the user's time.
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Checking storage credentials needs an RSA-mode profile: the platform only accepts this check encrypted with its public key. "{0}" is in token mode.', profile.label),
      vscode.l10n.t('Configure Profile'),
    );
    if (choice) await vscode.commands.executeCommand(Commands.profileEdit);
    return;
  }
  const from: StorageItem | undefined = arg instanceof StorageRow ? arg.storage : undefined;
  // One input box per field the catalog declares for the check: required, type and secrecy come from
  // there (core/compute/operations.ts); only the wording is this wizard's.
  const specFields = computeCore().OPERATION_CATALOG['storage.encryptCheck'].fields;
  const fields: Record<string, string> = Object.fromEntries(specFields.map((field) => [field.name, '']));
  const prefill = (storage: StorageItem | undefined): void => {
    for (const field of specFields) {
      if (field.secret) continue;
      const value = storage?.[field.name as keyof StorageItem];
      fields[field.name] = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    }
  };
  prefill(from);
  // From the palette, offer what the Storage view lists instead of blank boxes. A failed load
  // shows in the view; here it only means the user types the fields.
  const storages = from ? [] : await listedStorages().catch(() => []);
  const picks = storages.length > 0;
  const title = vscode.l10n.t('Check Storage Credentials ({0})', profile.label);
  let questions = checkQuestions(specFields, fields, from !== undefined);
  const totalSteps = (): number => questions.length + (picks ? 1 : 0);

  const ask = (index: number): Step | undefined => {
    const question = questions[index];
    if (!question) return undefined;
    const at = { title, step: index + 1 + (picks ? 1 : 0), totalSteps: totalSteps() };
    if (question.kind === 'keyPair') {
      return async (input) => {
        const typed = await input.showInputBox({
          ...at,
          value: '',
          prompt: vscode.l10n.t('Access key and secret key of "{0}" ({1}), separated by a space', fields.storage_name ?? '', [fields.bucket, fields.endpoint].filter(Boolean).join(' @ ')),
          placeholder: vscode.l10n.t('ACCESS_KEY SECRET_KEY'),
          password: true,
          validate: keyPairProblem,
        });
        const pair = splitKeyPair(typed);
        if (typeof pair !== 'string') {
          fields[question.access.name] = pair.accessKey;
          fields[question.secret.name] = pair.secretKey;
        }
        return ask(index + 1);
      };
    }
    const { field } = question;
    const hint = fieldHint(field.name);
    return async (input) => {
      fields[field.name] = await input.showInputBox({
        ...at,
        value: fields[field.name] ?? '',
        prompt: hint.prompt,
        ...(hint.placeholder ? { placeholder: hint.placeholder } : {}),
        ...(field.secret ? { password: true } : {}),
        validate: (value) => validateField(field, value, hint.prompt),
      });
      return ask(index + 1);
    };
  };

  const pickStorage: Step = async (input) => {
    const items = storageChoices(storages);
    const current = items.find((item) => item.storage?.storage_name === fields.storage_name);
    const picked = await input.showQuickPick({
      title,
      step: 1,
      totalSteps: totalSteps(),
      items,
      placeholder: vscode.l10n.t('Storage to check (its fields are filled in; you add the access and secret keys)'),
      ...(current ? { activeItem: current } : {}),
    });
    prefill(picked.storage);
    questions = checkQuestions(specFields, fields, picked.storage !== undefined);
    return ask(0);
  };

  try {
    const first = picks ? pickStorage : ask(0);
    if (!first || !(await MultiStepInput.run(first))) return;
  } catch (error) {
    services.reportError(error, vscode.l10n.t('Check storage credentials'));
    return;
  }
  const body = checkBody(specFields, fields);
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking storage "{0}"…', body.storage_name), cancellable: true },
      (_progress, token) => checkStorage(services, body, abortSignalFor(token)),
    );
    services.logger.info(`Storage check of "${body.storage_name}" (bucket ${body.bucket}): ${result.pass ? 'passed' : 'failed'}.`);
    const detail = result.message ? `: ${maskKeys(services.redactor.redact(result.message), body)}` : '';
    if (result.pass) void vscode.window.showInformationMessage(vscode.l10n.t('Storage "{0}" passed the credentials check{1}.', body.storage_name, detail));
    else void vscode.window.showWarningMessage(vscode.l10n.t('Storage "{0}" failed the credentials check{1}', body.storage_name, detail), vscode.l10n.t('Check Again')).then((choice) => {
      if (choice) return vscode.commands.executeCommand(Commands.storageCheck, arg);
      return undefined;
    });
  } catch (error) {
    if (!isAbort(error)) services.reportError(error, vscode.l10n.t('Check storage "{0}"', body.storage_name));
  }
}
