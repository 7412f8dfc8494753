// "Check Storage Credentials…": asks for the spec's fields (§2.2), prefilled from a selected storage
// row, with the access and secret keys as password inputs; sends the encrypted check and shows
// pass/fail with the server's message. The keys live only in this function's locals: never logged,
// stored, or shown.
import { Commands } from '../commandIds';
import * as vscode from 'vscode';
import type { StorageCheckBody, StorageItem } from '../../core/compute/api';
import { isAbort } from '../../core/errors';
import { maskSecret } from '../../core/log';
import { isApiFailure } from '../errors/describeError';
import type { ExtensionServices } from '../services';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { StorageRow, storageLocation } from './storageTree';

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
    const data = await services.computeClient().call('storage.encryptCheck', body, { encrypt: true, ...(signal ? { signal } : {}) });
    return interpretCheckResult(data);
  } catch (error) {
    // The platform rejected the bucket/keys (not our signature or token): that is the answer.
    if (isApiFailure(error) && error.kind === 'api') return { pass: false, message: error.serverMessage || `code ${error.code}` };
    throw error;
  }
}

/** Server text can echo what it was sent: mask the keys the user just typed (the Redactor does not know them). */
function maskKeys(text: string, body: StorageCheckBody): string {
  let out = text;
  for (const key of [body.secret_key, body.access_key]) if (key.length > 0) out = out.split(key).join(maskSecret(key));
  return out;
}

function required(label: string): (value: string) => string | undefined {
  return (value) => (value.trim().length === 0 ? `Enter the ${label}.` : undefined);
}

interface StorageChoice extends vscode.QuickPickItem {
  storage: StorageItem | undefined;
}

/** The first step from the palette: one of the listed storages (its fields prefilled), or all by hand. */
export function storageChoices(storages: readonly StorageItem[]): StorageChoice[] {
  return [
    ...storages.map((storage) => ({
      label: storage.storage_name,
      description: `${storage.status} · ${storageLocation(storage) || 'no bucket'}`,
      detail: vscode.l10n.t('{0} · region id {1}', storage.endpoint || 'no endpoint', storage.juicefs_region_id),
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
  const fields = {
    storage_name: '',
    juicefs_region_id: '',
    bucket: '',
    dir: '',
    endpoint: '',
    access_key: '',
    secret_key: '',
  };
  const prefill = (storage: StorageItem | undefined): void => {
    fields.storage_name = storage?.storage_name ?? '';
    fields.juicefs_region_id = storage ? String(storage.juicefs_region_id) : '';
    fields.bucket = storage?.bucket ?? '';
    fields.dir = storage?.dir ?? '';
    fields.endpoint = storage?.endpoint ?? '';
  };
  prefill(from);
  // From the palette, offer what the Storage view lists instead of seven blank boxes. A failed load
  // shows in the view; here it only means the user types the fields.
  const storages = from ? [] : await listedStorages().catch(() => []);
  const picks = storages.length > 0;
  const title = `Check Storage Credentials (${profile.label})`;
  const totalSteps = picks ? 8 : 7;
  const at = (step: number) => ({ title, step: picks ? step + 1 : step, totalSteps });

  const pickStorage: Step = async (input) => {
    const items = storageChoices(storages);
    const current = items.find((item) => item.storage?.storage_name === fields.storage_name);
    const picked = await input.showQuickPick({
      title,
      step: 1,
      totalSteps,
      items,
      placeholder: vscode.l10n.t('Storage to check (its fields are filled in; you add the access and secret keys)'),
      ...(current ? { activeItem: current } : {}),
    });
    prefill(picked.storage);
    return askName;
  };

  const askName: Step = async (input) => {
    fields.storage_name = await input.showInputBox({ ...at(1), value: fields.storage_name, prompt: vscode.l10n.t('Storage name'), validate: required('storage name') });
    return askRegionId;
  };
  const askRegionId: Step = async (input) => {
    fields.juicefs_region_id = await input.showInputBox({
      ...at(2),
      value: fields.juicefs_region_id,
      prompt: vscode.l10n.t('Storage region id (juicefs_region_id, an integer)'),
      validate: (value) => (/^\d+$/.test(value.trim()) ? undefined : 'Enter the region id as a whole number.'),
    });
    return askBucket;
  };
  const askBucket: Step = async (input) => {
    fields.bucket = await input.showInputBox({ ...at(3), value: fields.bucket, prompt: vscode.l10n.t('Bucket'), validate: required('bucket') });
    return askDir;
  };
  const askDir: Step = async (input) => {
    fields.dir = await input.showInputBox({ ...at(4), value: fields.dir, prompt: vscode.l10n.t('Directory in the bucket (may be empty for the root)'), placeholder: vscode.l10n.t('e.g. models/') });
    return askEndpoint;
  };
  const askEndpoint: Step = async (input) => {
    fields.endpoint = await input.showInputBox({
      ...at(5),
      value: fields.endpoint,
      prompt: vscode.l10n.t('Endpoint (storage service host name)'),
      placeholder: vscode.l10n.t('e.g. tos-cn-beijing.volces.com'),
      validate: required('endpoint'),
    });
    return askAccessKey;
  };
  const askAccessKey: Step = async (input) => {
    fields.access_key = await input.showInputBox({ ...at(6), value: fields.access_key, prompt: vscode.l10n.t('Access key'), password: true, validate: required('access key') });
    return askSecretKey;
  };
  const askSecretKey: Step = async (input) => {
    fields.secret_key = await input.showInputBox({ ...at(7), value: fields.secret_key, prompt: vscode.l10n.t('Secret key'), password: true, validate: required('secret key') });
  };

  try {
    if (!(await MultiStepInput.run(picks ? pickStorage : askName))) return;
  } catch (error) {
    services.reportError(error, 'Check storage credentials');
    return;
  }
  const body: StorageCheckBody = {
    storage_name: fields.storage_name.trim(),
    juicefs_region_id: Number(fields.juicefs_region_id.trim()),
    bucket: fields.bucket.trim(),
    dir: fields.dir.trim(),
    endpoint: fields.endpoint.trim(),
    access_key: fields.access_key.trim(),
    secret_key: fields.secret_key.trim(),
  };
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking storage "{0}"…', body.storage_name), cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        return checkStorage(services, body, controller.signal).finally(() => subscription.dispose());
      },
    );
    services.logger.info(`Storage check of "${body.storage_name}" (bucket ${body.bucket}): ${result.pass ? 'passed' : 'failed'}.`);
    const detail = result.message ? `: ${maskKeys(services.redactor.redact(result.message), body)}` : '';
    if (result.pass) void vscode.window.showInformationMessage(vscode.l10n.t('Storage "{0}" passed the credentials check{1}.', body.storage_name, detail));
    else void vscode.window.showWarningMessage(vscode.l10n.t('Storage "{0}" failed the credentials check{1}', body.storage_name, detail), vscode.l10n.t('Check Again')).then((choice) => {
      if (choice) return vscode.commands.executeCommand(Commands.storageCheck, arg);
      return undefined;
    });
  } catch (error) {
    if (!isAbort(error)) services.reportError(error, `Check storage "${body.storage_name}"`);
  }
}
