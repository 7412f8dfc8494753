// S3 ↔ NAS transfer commands (docs/nas.md, "Transfers"): Create Transfer… (RSA-mode profiles only: the
// platform takes create, retry and the connection check only as encrypted bodies; the connection is
// checked first), Retry (Error/Exception jobs; the keys are asked again), Stop (Running jobs, confirmed)
// and Delete (the record only, confirmed). The S3 secret key comes from a password input and lives only
// in the one request body: never logged, shown, stored or put in an error.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { NasVolume, TransferDirection, TransferOverwritePolicy, TransferRecord } from '../../core/nas/operations';
import type { FieldProblem, TransferPlan } from '../../core/nas/transferForm';
import { S3_SUPPLIERS, bucketProblem, canRetryTransfer, canStopTransfer, endpointProblem, nasPathProblem, parseIgnorePatterns, planOf, prefixProblem, transferBody } from '../../core/nas/transferForm';
import { errorMessage } from '../../shared/errorMessage';
import { nasCore } from './nasCore';
import { resolveVolume, type NasContext } from './nasCommands';
import { directionText, serverText, transferStatusName, TransferRow } from './transfersGroup';

/** Which question is asked (the in-host tests answer by key). */
export type TransferQuestion = 'direction' | 'supplier' | 'supplierName' | 'endpoint' | 'bucket' | 'prefix' | 'nasPath' | 'policy' | 'ignore' | 'name' | 'accessKey' | 'secretKey';

/** How the flows ask: the editor's pickers and inputs, or a script in the in-host tests. */
export interface TransferAsker {
  pick<T extends vscode.QuickPickItem>(question: TransferQuestion, items: readonly T[], placeHolder: string): Promise<T | undefined>;
  input(question: TransferQuestion, options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** A modal question; true only when `action` was chosen. */
  confirm(message: string, detail: string, action: string, warning: boolean): Promise<boolean>;
}

export const WINDOW_ASKER: TransferAsker = {
  pick: async (_question, items, placeHolder) => vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }),
  input: async (_question, options) => vscode.window.showInputBox({ ...options, ignoreFocusOut: true }),
  confirm: async (message, detail, action, warning) => {
    const show = warning ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    return (await show(message, { modal: true, detail }, action)) === action;
  },
};

export function problemText(problem: FieldProblem | undefined): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'empty':
      return vscode.l10n.t('This field is required.');
    case 'spaces':
      return vscode.l10n.t('No spaces here.');
    case 'characters':
      return vscode.l10n.t('This contains characters that cannot be used here.');
    case 'too-long':
      return vscode.l10n.t('This is too long.');
    case 'relative':
      return vscode.l10n.t('Start the folder with "/" (the prefix without one).');
    case 'dots':
      return vscode.l10n.t('"." and ".." are not allowed in the path.');
  }
}

function policyText(policy: TransferOverwritePolicy): string {
  return policy === 1 ? vscode.l10n.t('Always overwrite') : policy === 3 ? vscode.l10n.t('Compare by content hash') : vscode.l10n.t('Skip files that exist');
}

/** The last "needs RSA mode" message shown (the in-host tests read it). */
let lastRefusal: string | undefined;
export function lastRsaRefusal(): string | undefined {
  return lastRefusal;
}

/** A token-mode profile cannot create transfers: say so, naming RSA mode, before asking for anything. */
async function requireRsaProfile(context: NasContext): Promise<boolean> {
  const profile = await context.services.requireProfile();
  if (!profile) return false;
  if (profile.mode === 'rsa') return true;
  const create = vscode.l10n.t('Create RSA-Mode Profile…');
  const message = vscode.l10n.t(
    'S3 transfers need an RSA-mode profile: the platform accepts creating, retrying and checking a transfer only as a body encrypted with its public key. Profile "{0}" uses a token-mode key.',
    profile.label,
  );
  context.services.logger.info(`NAS: transfer refused before asking anything: profile "${profile.label}" is token-mode (RSA mode needed).`);
  lastRefusal = message;
  void vscode.window.showErrorMessage(message, create).then((answer) => (answer === create ? vscode.commands.executeCommand(Commands.profileCreate) : undefined));
  return false;
}

/** Asks for the fields of a new transfer (everything but the keys); undefined when the user backs out. */
async function askPlan(asker: TransferAsker, volume: NasVolume): Promise<TransferPlan | undefined> {
  const direction = await asker.pick<vscode.QuickPickItem & { direction: TransferDirection }>(
    'direction',
    [
      { label: directionText(1), description: vscode.l10n.t('copy objects into the volume'), direction: 1 },
      { label: directionText(2), description: vscode.l10n.t('copy files from the volume to a bucket'), direction: 2 },
    ],
    vscode.l10n.t('Direction'),
  );
  if (!direction) return undefined;
  const other = vscode.l10n.t('Other S3-compatible service…');
  const supplierPick = await asker.pick('supplier', [...S3_SUPPLIERS.map((label) => ({ label })), { label: other }], vscode.l10n.t('Object storage vendor'));
  if (!supplierPick) return undefined;
  const supplier =
    supplierPick.label === other
      ? await asker.input('supplierName', { prompt: vscode.l10n.t('Vendor name as the platform knows it (s3_supplier)'), validateInput: (text) => problemText(bucketProblem(text)) })
      : supplierPick.label;
  if (!supplier) return undefined;
  const endpoint = await asker.input('endpoint', {
    prompt: vscode.l10n.t('Endpoint of the object storage'),
    placeHolder: vscode.l10n.t('e.g. {0}', 'cos.ap-guangzhou.myqcloud.com'),
    validateInput: (text) => problemText(endpointProblem(text)),
  });
  if (endpoint === undefined) return undefined;
  const bucket = await asker.input('bucket', { prompt: vscode.l10n.t('Bucket'), validateInput: (text) => problemText(bucketProblem(text)) });
  if (bucket === undefined) return undefined;
  const prefix = await asker.input('prefix', {
    prompt: vscode.l10n.t('Prefix in the bucket (empty: the whole bucket)'),
    placeHolder: vscode.l10n.t('e.g. {0}', 'datasets/'),
    validateInput: (text) => problemText(prefixProblem(text)),
  });
  if (prefix === undefined) return undefined;
  const nasPath = await asker.input('nasPath', { prompt: vscode.l10n.t('Folder on the volume "{0}"', volume.name), value: '/', validateInput: (text) => problemText(nasPathProblem(text)) });
  if (nasPath === undefined) return undefined;
  const policy = await asker.pick<vscode.QuickPickItem & { policy: TransferOverwritePolicy }>(
    'policy',
    ([2, 1, 3] as const).map((value) => ({ label: policyText(value), policy: value })),
    vscode.l10n.t('Files that already exist at the destination'),
  );
  if (!policy) return undefined;
  const ignore = await asker.input('ignore', { prompt: vscode.l10n.t('File suffixes to skip, comma-separated (optional)'), placeHolder: vscode.l10n.t('e.g. {0}', '.tmp, .log') });
  if (ignore === undefined) return undefined;
  const name = await asker.input('name', { prompt: vscode.l10n.t('Name of the transfer (optional: the platform names it)') });
  if (name === undefined) return undefined;
  return {
    storageId: volume.storage_id,
    name: serverText(name, 64).trim(),
    direction: direction.direction,
    supplier: supplier.trim(),
    endpoint: endpoint.trim(),
    bucket: bucket.trim(),
    prefix,
    nasPath: nasPath.trim(),
    overwritePolicy: policy.policy,
    ignorePatterns: parseIgnorePatterns(ignore),
  };
}

/** The S3 key pair: the access key in a plain input, the secret key in a password input. */
async function askKeys(asker: TransferAsker): Promise<{ accessKey: string; secretKey: string } | undefined> {
  const accessKey = await asker.input('accessKey', { prompt: vscode.l10n.t('S3 access key ID (AK)'), validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('This field is required.') : undefined) });
  if (!accessKey) return undefined;
  const secretKey = await asker.input('secretKey', {
    prompt: vscode.l10n.t('S3 secret access key (SK): sent encrypted for this request only, never stored'),
    password: true,
    validateInput: (text) => (text === '' ? vscode.l10n.t('This field is required.') : undefined),
  });
  if (!secretKey) return undefined;
  return { accessKey, secretKey };
}

function planLines(plan: TransferPlan, volumeName: string): string {
  return [
    vscode.l10n.t('Direction: {0}', directionText(plan.direction)),
    vscode.l10n.t('Object storage: {0} · {1}', plan.supplier, plan.endpoint),
    vscode.l10n.t('Bucket and prefix: {0}/{1}', plan.bucket, plan.prefix),
    vscode.l10n.t('Volume and folder: {0} {1}', volumeName, plan.nasPath || '/'),
    vscode.l10n.t('Existing files: {0}', policyText(plan.overwritePolicy)),
    ...(plan.ignorePatterns.length > 0 ? [vscode.l10n.t('Skipped suffixes: {0}', plan.ignorePatterns.join(', '))] : []),
    vscode.l10n.t('The connection is checked first; the keys are sent encrypted and are not stored.'),
  ].join('\n');
}

/**
 * Checks the connection, then creates (or retries) the job. Error text that echoes a key is masked, and a
 * failed check says what the platform answered.
 */
async function send(context: NasContext, plan: TransferPlan, keys: { accessKey: string; secretKey: string }, retryOf: number | undefined): Promise<{ id: number; status: string }> {
  const core = nasCore();
  const body = transferBody(plan, keys);
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the object storage connection, then creating the transfer…') }, () =>
      core.createTransfer(context.services.computeClient(), body, retryOf !== undefined ? { retryOf } : {}),
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === 's3-check-failed') {
      throw new Error(vscode.l10n.t('The object storage connection check failed: {0}. Nothing was created; check the endpoint, bucket, prefix and keys.', serverText((error as { serverMessage?: unknown }).serverMessage)));
    }
    const text = errorMessage(error);
    const masked = core.maskKeys(text, body);
    if (masked !== text) throw new Error(masked);
    throw error;
  }
}

/** Create Transfer… on a volume (a row, an id, or a pick among Active volumes). Returns the new job id. */
export async function createTransferFlow(context: NasContext, asker: TransferAsker, argument?: unknown): Promise<number | undefined> {
  if (!(await requireRsaProfile(context))) return undefined;
  const volume = await resolveVolume(context, argument, (v) => v.status === 'Active');
  if (!volume) return undefined;
  if (volume.status !== 'Active') throw new Error(vscode.l10n.t('Transfers need an Active volume; "{0}" is {1}.', volume.name, volume.status));
  const plan = await askPlan(asker, volume);
  if (!plan) return undefined;
  const keys = await askKeys(asker);
  if (!keys) return undefined;
  const profile = context.services.profiles.active;
  const go = vscode.l10n.t('Create Transfer');
  if (!(await asker.confirm(vscode.l10n.t('Create an S3 transfer on profile "{0}"?', profile?.label ?? '?'), planLines(plan, volume.name), go, false))) return undefined;
  const created = await send(context, plan, keys, undefined);
  context.tree.refresh();
  void vscode.window.showInformationMessage(vscode.l10n.t('Transfer {0} created ({1}). Its progress shows under Transfers in the NAS view.', created.id, transferStatusName(created.status)));
  return created.id;
}

/** A transfer from a command argument (row or id) or a pick among those `filter` allows. */
async function resolveTransfer(context: NasContext, argument: unknown, filter: (r: TransferRecord) => boolean): Promise<TransferRecord | undefined> {
  if (argument instanceof TransferRow) return argument.record;
  const records = await context.tree.loadTransfers();
  if (typeof argument === 'number') return records.find((r) => r.id === argument);
  const candidates = records.filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No S3 transfer fits.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((record) => ({ label: serverText(record.name, 80), description: `${transferStatusName(record.status)} · ${serverText(record.storage_name, 60)}`, record })),
    { placeHolder: vscode.l10n.t('Choose an S3 transfer') },
  );
  return picked?.record;
}

/** Retry of an Error/Exception job: its own fields, the keys asked again; the platform replaces the job. */
export async function retryTransferFlow(context: NasContext, asker: TransferAsker, argument?: unknown): Promise<number | undefined> {
  if (!(await requireRsaProfile(context))) return undefined;
  const record = await resolveTransfer(context, argument, canRetryTransfer);
  if (!record) return undefined;
  if (!canRetryTransfer(record)) throw new Error(vscode.l10n.t('Only a failed transfer can be retried; "{0}" is {1}.', serverText(record.name, 80), transferStatusName(record.status)));
  const plan = planOf(record);
  const keys = await askKeys(asker);
  if (!keys) return undefined;
  const go = vscode.l10n.t('Retry');
  const detail = `${planLines(plan, serverText(record.storage_name, 80))}\n${vscode.l10n.t('The platform replaces the failed job with a new one.')}`;
  if (!(await asker.confirm(vscode.l10n.t('Retry the S3 transfer "{0}"?', serverText(record.name, 80)), detail, go, false))) return undefined;
  const created = await send(context, plan, keys, record.id);
  context.tree.refresh();
  return created.id;
}

export async function stopTransferFlow(context: NasContext, asker: TransferAsker, argument?: unknown): Promise<boolean> {
  const record = await resolveTransfer(context, argument, canStopTransfer);
  if (!record) return false;
  if (!canStopTransfer(record)) throw new Error(vscode.l10n.t('Only a running transfer can be stopped; "{0}" is {1}.', serverText(record.name, 80), transferStatusName(record.status)));
  const stop = vscode.l10n.t('Stop Transfer');
  const detail = vscode.l10n.t('Files already copied stay where they are; the rest is not copied. A stopped transfer cannot be resumed.');
  if (!(await asker.confirm(vscode.l10n.t('Stop the S3 transfer "{0}"?', serverText(record.name, 80)), detail, stop, true))) return false;
  await context.services.computeClient().call('nas.transferStop', { id: record.id });
  context.tree.refresh();
  return true;
}

export async function deleteTransferFlow(context: NasContext, asker: TransferAsker, argument?: unknown): Promise<boolean> {
  const record = await resolveTransfer(context, argument, () => true);
  if (!record) return false;
  const remove = vscode.l10n.t('Delete Record');
  const detail = vscode.l10n.t('Only the job record is deleted: the volume and the files already copied stay. This cannot be undone.');
  if (!(await asker.confirm(vscode.l10n.t('Delete the S3 transfer record "{0}" ({1})?', serverText(record.name, 80), transferStatusName(record.status)), detail, remove, true))) return false;
  await context.services.computeClient().call('nas.transferDelete', { id: record.id });
  context.tree.refresh();
  return true;
}

export const TRANSFER_COMMANDS: CommandEntry<NasContext>[] = [
  { id: Commands.nasTransferCreate, doing: vscode.l10n.t('Create S3 transfer'), create: (context) => (argument: unknown) => createTransferFlow(context, WINDOW_ASKER, argument) },
  { id: Commands.nasTransferRetry, doing: vscode.l10n.t('Retry S3 transfer'), create: (context) => (argument: unknown) => retryTransferFlow(context, WINDOW_ASKER, argument) },
  { id: Commands.nasTransferStop, doing: vscode.l10n.t('Stop S3 transfer'), create: (context) => (argument: unknown) => stopTransferFlow(context, WINDOW_ASKER, argument) },
  { id: Commands.nasTransferDelete, doing: vscode.l10n.t('Delete S3 transfer record'), create: (context) => (argument: unknown) => deleteTransferFlow(context, WINDOW_ASKER, argument) },
];
