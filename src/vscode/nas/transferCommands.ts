// S3 ↔ NAS transfer commands (docs/nas.md, "Transfers"): Create Transfer… (RSA-mode profiles only: the
// platform takes create, retry and the connection check only as encrypted bodies; the connection is
// checked first) and Retry (Error/Exception jobs; the keys are asked again) as multi-step flows with Back
// and a review whose highlighted answer is Cancel, Stop (Running jobs, confirmed)
// and Delete (the record only, confirmed). The S3 secret key comes from a password input and lives only
// in the one request body: never logged, shown, stored or put in an error.

import * as vscode from 'vscode';
import { volumeStatusName } from '../ui/statusWords';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { NasVolume, TransferDirection, TransferOverwritePolicy, TransferRecord } from '../../core/nas/operations';
import type { FieldProblem, TransferPlan } from '../../core/nas/transferForm';
import { S3_SUPPLIERS, bucketProblem, canRetryTransfer, canStopTransfer, endpointProblem, nasPathProblem, parseIgnorePatterns, planOf, prefixProblem, transferBody } from '../../core/nas/transferForm';
import { errorMessage } from '../../shared/errorMessage';
import { Refusal } from '../errors/refusal';
import { nasCore } from './nasCore';
import { resolveVolume, transfersOf, type NasContext } from './nasCommands';
import { directionText, serverText, transferStatusName, TRANSFER_KIND } from './transferKind';
import { itemOfKind } from '../kinds/kindTree';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { pickText } from '../ui/pickText';

/** How the stop and delete questions are asked: modal dialogs, or a script in the in-host tests. */
export interface TransferAsker {
  /** A modal question; true only when `action` was chosen. */
  confirm(message: string, detail: string, action: string, warning: boolean): Promise<boolean>;
}

export const WINDOW_ASKER: TransferAsker = {
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
  const message = vscode.l10n.t(
    'S3 transfers need an RSA-mode profile: the platform accepts creating, retrying and checking a transfer only as a body encrypted with its public key. Profile "{0}" uses a token-mode key.',
    profile.label,
  );
  context.services.logger.info(`NAS: transfer refused before asking anything: profile "${profile.label}" is token-mode (RSA mode needed).`);
  lastRefusal = message;
  context.services.reportError(new Refusal(message, [{ kind: 'createProfile' }]), vscode.l10n.t('Create S3 transfer'));
  return false;
}

/** Create Transfer's steps: the plan, the two keys, the review (docs/nas.md, "Transfers"). */
const CREATE_STEPS = 12;

interface PlanAnswers {
  direction?: TransferDirection;
  supplierPick?: string;
  supplier: string;
  endpoint: string;
  bucket: string;
  prefix: string;
  nasPath: string;
  policy?: TransferOverwritePolicy;
  ignore: string;
  name: string;
}

function planFrom(state: PlanAnswers, volume: NasVolume): TransferPlan {
  return {
    storageId: volume.storage_id,
    name: serverText(state.name, 64).trim(),
    direction: state.direction ?? 1,
    supplier: state.supplier.trim(),
    endpoint: state.endpoint.trim(),
    bucket: state.bucket.trim(),
    prefix: state.prefix,
    nasPath: state.nasPath.trim(),
    overwritePolicy: state.policy ?? 2,
    ignorePatterns: parseIgnorePatterns(state.ignore),
  };
}

/** The S3 key pair: the access key in a plain input, the secret key in a password input (never kept after the flow). */
function keySteps(keys: { accessKey: string; secretKey: string }, at: (step: number) => { title: string; step: number; totalSteps: number }, first: number, then: Step): Step {
  const askSecret: Step = async (input) => {
    keys.secretKey = await input.showInputBox({
      ...at(first + 1),
      value: '',
      prompt: vscode.l10n.t('S3 secret access key (SK): sent encrypted for this request only, never stored'),
      password: true,
      validate: (text) => (text === '' ? vscode.l10n.t('This field is required.') : undefined),
    });
    return then;
  };
  return async (input) => {
    keys.accessKey = await input.showInputBox({ ...at(first), value: keys.accessKey, prompt: vscode.l10n.t('S3 access key ID (AK)'), validate: (text) => (text.trim() === '' ? vscode.l10n.t('This field is required.') : undefined) });
    return askSecret;
  };
}

/** Asks the fields of a new transfer, the keys, and the review (Cancel highlighted); undefined when the user backs out. */
async function askTransfer(volume: NasVolume, profileLabel: string): Promise<{ plan: TransferPlan; keys: { accessKey: string; secretKey: string } } | undefined> {
  const title = vscode.l10n.t('Create S3 Transfer on "{0}"', pickText(volume.name));
  const at = (step: number) => ({ title, step, totalSteps: CREATE_STEPS });
  const state: PlanAnswers = { supplier: '', endpoint: '', bucket: '', prefix: '', nasPath: '/', ignore: '', name: '' };
  const keys = { accessKey: '', secretKey: '' };
  const other = vscode.l10n.t('Other S3-compatible service…');
  let go = false;
  const input = (step: number, key: 'endpoint' | 'bucket' | 'prefix' | 'nasPath' | 'ignore' | 'name', prompt: string, next: Step, extra: { placeholder?: string; validate?: (text: string) => string | undefined } = {}): Step =>
    async (ask) => {
      state[key] = await ask.showInputBox({ ...at(step), value: state[key], prompt, ...extra });
      return next;
    };
  const review: Step = async (ask) => {
    go = await ask.showReview({
      ...at(CREATE_STEPS),
      go: { label: vscode.l10n.t('$(cloud-upload) Create Transfer'), description: vscode.l10n.t('on profile "{0}"', profileLabel) },
      placeholder: vscode.l10n.t('Review: pick Create Transfer, or Cancel'),
      lines: planLines(planFrom(state, volume), volume.name).split('\n'),
    });
  };
  const askKeys = keySteps(keys, at, 10, review);
  const askName = input(9, 'name', vscode.l10n.t('Name of the transfer (optional: the platform names it)'), askKeys);
  const askIgnore = input(8, 'ignore', vscode.l10n.t('File suffixes to skip, comma-separated (optional)'), askName, { placeholder: vscode.l10n.t('e.g. {0}', '.tmp, .log') });
  const askPolicy: Step = async (ask) => {
    const items = ([2, 1, 3] as const).map((value) => ({ label: policyText(value), policy: value }));
    state.policy = (await ask.showQuickPick({ ...at(7), items, placeholder: vscode.l10n.t('Files that already exist at the destination'), activeItem: items.find((item) => item.policy === state.policy) })).policy;
    return askIgnore;
  };
  const askNasPath = input(6, 'nasPath', vscode.l10n.t('Folder on the volume "{0}"', volume.name), askPolicy, { validate: (text) => problemText(nasPathProblem(text)) });
  const askPrefix = input(5, 'prefix', vscode.l10n.t('Prefix in the bucket (empty: the whole bucket)'), askNasPath, { placeholder: vscode.l10n.t('e.g. {0}', 'datasets/'), validate: (text) => problemText(prefixProblem(text)) });
  const askBucket = input(4, 'bucket', vscode.l10n.t('Bucket'), askPrefix, { validate: (text) => problemText(bucketProblem(text)) });
  const askEndpoint = input(3, 'endpoint', vscode.l10n.t('Endpoint of the object storage'), askBucket, { placeholder: vscode.l10n.t('e.g. {0}', 'cos.ap-guangzhou.myqcloud.com'), validate: (text) => problemText(endpointProblem(text)) });
  const askSupplierName: Step = async (ask) => {
    state.supplier = await ask.showInputBox({ ...at(2), value: state.supplier, prompt: vscode.l10n.t('Vendor name as the platform knows it (s3_supplier)'), validate: (text) => problemText(bucketProblem(text)) });
    return askEndpoint;
  };
  const askSupplier: Step = async (ask) => {
    const items = [...S3_SUPPLIERS.map((label) => ({ label })), { label: other }];
    const picked = await ask.showQuickPick({ ...at(2), items, placeholder: vscode.l10n.t('Object storage vendor'), activeItem: items.find((item) => item.label === state.supplierPick) });
    state.supplierPick = picked.label;
    if (picked.label === other) return askSupplierName;
    state.supplier = picked.label;
    return askEndpoint;
  };
  const askDirection: Step = async (ask) => {
    const items: (vscode.QuickPickItem & { direction: TransferDirection })[] = [
      { label: directionText(1), description: vscode.l10n.t('copy objects into the volume'), direction: 1 },
      { label: directionText(2), description: vscode.l10n.t('copy files from the volume to a bucket'), direction: 2 },
    ];
    state.direction = (await ask.showQuickPick({ ...at(1), items, placeholder: vscode.l10n.t('Direction'), activeItem: items.find((item) => item.direction === state.direction) })).direction;
    return askSupplier;
  };
  if (!(await MultiStepInput.run(askDirection)) || !go) return undefined;
  return { plan: planFrom(state, volume), keys };
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
      transfersOf(context).create(body, retryOf !== undefined ? { retryOf } : {}),
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === 's3-check-failed') {
      throw new Refusal(vscode.l10n.t('The object storage connection check failed: {0}. Nothing was created; check the endpoint, bucket, prefix and keys.', serverText((error as { serverMessage?: unknown }).serverMessage)));
    }
    const text = errorMessage(error);
    const masked = core.maskKeys(text, body);
    if (masked !== text) throw new Error(masked);
    throw error;
  }
}

/** Create Transfer… on a volume (a row, an id, or a pick among Active volumes). Returns the new job id. */
export async function createTransferFlow(context: NasContext, argument?: unknown): Promise<number | undefined> {
  if (!(await requireRsaProfile(context))) return undefined;
  const volume = await resolveVolume(context, argument, (v) => v.status === 'Active');
  if (!volume) return undefined;
  if (volume.status !== 'Active') throw new Refusal(vscode.l10n.t('Transfers need an Active volume; "{0}" is {1}.', volume.name, volumeStatusName(volume.status)));
  const answers = await askTransfer(volume, context.services.profiles.active?.label ?? '?');
  if (!answers) return undefined;
  const created = await send(context, answers.plan, answers.keys, undefined);
  void vscode.window.showInformationMessage(vscode.l10n.t('Transfer {0} created ({1}). Its progress shows under Transfers in the NAS view.', created.id, transferStatusName(created.status)));
  return created.id;
}

/** A transfer from a command argument (row or id) or a pick among those `filter` allows. */
async function resolveTransfer(context: NasContext, argument: unknown, filter: (r: TransferRecord) => boolean): Promise<TransferRecord | undefined> {
  const row = itemOfKind(argument, TRANSFER_KIND);
  if (row) return row;
  const records = await context.stores.transfers();
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

/** Retry of an Error/Exception job: its own fields, the keys asked again, a review; the platform replaces the job. */
export async function retryTransferFlow(context: NasContext, argument?: unknown): Promise<number | undefined> {
  if (!(await requireRsaProfile(context))) return undefined;
  const record = await resolveTransfer(context, argument, canRetryTransfer);
  if (!record) return undefined;
  if (!canRetryTransfer(record)) throw new Refusal(vscode.l10n.t('Only a failed transfer can be retried; "{0}" is {1}.', serverText(record.name, 80), transferStatusName(record.status)));
  const plan = planOf(record);
  const keys = { accessKey: '', secretKey: '' };
  const title = vscode.l10n.t('Retry S3 Transfer "{0}"', pickText(serverText(record.name, 80)));
  const at = (step: number) => ({ title, step, totalSteps: 3 });
  let go = false;
  const review: Step = async (input) => {
    go = await input.showReview({
      ...at(3),
      go: { label: vscode.l10n.t('$(refresh) Retry'), description: vscode.l10n.t('on profile "{0}"', context.services.profiles.active?.label ?? '?'), detail: vscode.l10n.t('The platform replaces the failed job with a new one.') },
      placeholder: vscode.l10n.t('Review: pick Retry, or Cancel'),
      lines: planLines(plan, serverText(record.storage_name, 80)).split('\n'),
    });
  };
  if (!(await MultiStepInput.run(keySteps(keys, at, 1, review))) || !go) return undefined;
  const created = await send(context, plan, keys, record.id);
  return created.id;
}

export async function stopTransferFlow(context: NasContext, asker: TransferAsker, argument?: unknown): Promise<boolean> {
  const record = await resolveTransfer(context, argument, canStopTransfer);
  if (!record) return false;
  if (!canStopTransfer(record)) throw new Refusal(vscode.l10n.t('Only a running transfer can be stopped; "{0}" is {1}.', serverText(record.name, 80), transferStatusName(record.status)));
  const stop = vscode.l10n.t('Stop Transfer');
  const detail = vscode.l10n.t('Files already copied stay where they are; the rest is not copied. A stopped transfer cannot be resumed.');
  if (!(await asker.confirm(vscode.l10n.t('Stop the S3 transfer "{0}"?', serverText(record.name, 80)), detail, stop, true))) return false;
  await transfersOf(context).stop(record.id);
  return true;
}

export async function deleteTransferFlow(context: NasContext, asker: TransferAsker, argument?: unknown): Promise<boolean> {
  const record = await resolveTransfer(context, argument, () => true);
  if (!record) return false;
  const remove = vscode.l10n.t('Delete Record');
  const detail = vscode.l10n.t('Only the job record is deleted: the volume and the files already copied stay. This cannot be undone.');
  if (!(await asker.confirm(vscode.l10n.t('Delete the S3 transfer record "{0}" ({1})?', serverText(record.name, 80), transferStatusName(record.status)), detail, remove, true))) return false;
  await transfersOf(context).remove(record.id);
  return true;
}

export const TRANSFER_COMMANDS: CommandEntry<NasContext>[] = [
  { id: Commands.nasTransferCreate, doing: vscode.l10n.t('Create S3 transfer'), create: (context) => (argument: unknown) => createTransferFlow(context, argument) },
  { id: Commands.nasTransferRetry, doing: vscode.l10n.t('Retry S3 transfer'), create: (context) => (argument: unknown) => retryTransferFlow(context, argument) },
  { id: Commands.nasTransferStop, doing: vscode.l10n.t('Stop S3 transfer'), create: (context) => (argument: unknown) => stopTransferFlow(context, WINDOW_ASKER, argument) },
  { id: Commands.nasTransferDelete, doing: vscode.l10n.t('Delete S3 transfer record'), create: (context) => (argument: unknown) => deleteTransferFlow(context, WINDOW_ASKER, argument) },
];
