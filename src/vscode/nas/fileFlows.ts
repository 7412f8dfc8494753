// Upload to Volume… and Download from Volume… as multi-step flows (ui/multiStepInput: a title, "Step n/N"
// and Back): the folder on the volume (typed for an upload, browsed for a download: folders and files
// listed, down into a folder, ".." up, Back to the folder before) and what to do with files that already
// exist. Names read from the volume are shown escaped (ui/pickText).

import * as vscode from 'vscode';
import type { NasVolume } from '../../core/nas/operations';
import type { ExistingFilePolicy } from '../../core/nas/transfer';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { pickText } from '../ui/pickText';
import { nasCore } from './nasCore';
import type { SftpFileSystem } from '../remoteFiles/sftpFileSystem';
import { volumeUri } from './volumeUri';

/** Most entries one folder lists in the browse step (a volume folder can hold any number). */
const BROWSE_LIMIT = 1000;

interface PolicyItem extends vscode.QuickPickItem {
  policy: ExistingFilePolicy;
}

function policyItems(): PolicyItem[] {
  return [
    { label: vscode.l10n.t('Skip existing files'), policy: 'skip' },
    { label: vscode.l10n.t('Replace only older files'), policy: 'newer' },
    { label: vscode.l10n.t('Overwrite existing files'), policy: 'overwrite' },
  ];
}

async function askPolicy(input: MultiStepInput, at: { title: string; step: number; totalSteps: number }, current: ExistingFilePolicy | undefined): Promise<ExistingFilePolicy> {
  const items = policyItems();
  const picked = await input.showQuickPick({ ...at, items, placeholder: vscode.l10n.t('Files that already exist at the destination'), activeItem: items.find((item) => item.policy === current) });
  return picked.policy;
}

function folderProblem(text: string): string | undefined {
  return text.startsWith('/') && !text.split('/').some((part) => part === '..') ? undefined : vscode.l10n.t('Start the folder with "/"; ".." is not allowed.');
}

/** The questions of an upload: the folder on the volume and the policy; undefined when the user backs out. */
export async function uploadFlow(volume: NasVolume, defaultTarget: string, known: { target?: string; policy?: ExistingFilePolicy }): Promise<{ target: string; policy: ExistingFilePolicy } | undefined> {
  const title = vscode.l10n.t('Upload to "{0}"', pickText(volume.name));
  const state: { target: string; policy?: ExistingFilePolicy } = { target: known.target ?? defaultTarget, ...(known.policy ? { policy: known.policy } : {}) };
  const steps: Step[] = [];
  const askPolicyStep: Step = async (input) => {
    state.policy = await askPolicy(input, { title, step: steps.indexOf(askPolicyStep) + 1, totalSteps: steps.length }, state.policy);
  };
  const askTarget: Step = async (input) => {
    state.target = await input.showInputBox({ title, step: 1, totalSteps: steps.length, value: state.target, prompt: vscode.l10n.t('Folder on the volume'), validate: folderProblem });
    return known.policy ? undefined : askPolicyStep;
  };
  if (known.target === undefined) steps.push(askTarget);
  if (!known.policy) steps.push(askPolicyStep);
  if (steps.length > 0 && !(await MultiStepInput.run(steps[0] as Step))) return undefined;
  return state.policy ? { target: state.target, policy: state.policy } : undefined;
}

interface BrowseItem extends vscode.QuickPickItem {
  /** Open this folder, or choose this path (a file, or the folder shown). */
  action: 'open' | 'choose';
  path: string;
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

function childOf(folder: string, name: string): string {
  return `${folder === '/' ? '' : folder}/${name}`;
}

/** The browse step's rows for `folder`: choose it, "..", then its folders and files (names escaped). */
export function browseItems(folder: string, entries: readonly [string, vscode.FileType][]): BrowseItem[] {
  const items: BrowseItem[] = [{ label: vscode.l10n.t('$(check) Download this folder'), description: pickText(folder), action: 'choose', path: folder }];
  // eslint-disable-next-line no-restricted-syntax -- an icon and "..", not prose
  if (folder !== '/') items.push({ label: '$(arrow-up) ..', description: vscode.l10n.t('up to {0}', pickText(parentOf(folder))), action: 'open', path: parentOf(folder) });
  const sorted = [...entries].sort(([a, at], [b, bt]) => Number(bt === vscode.FileType.Directory) - Number(at === vscode.FileType.Directory) || (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, type] of sorted.slice(0, BROWSE_LIMIT)) {
    const isFolder = (type & vscode.FileType.Directory) !== 0;
    items.push({ label: `${isFolder ? '$(folder)' : '$(file)'} ${pickText(name)}`, action: isFolder ? 'open' : 'choose', path: childOf(folder, name) });
  }
  if (sorted.length > BROWSE_LIMIT) items.push({ label: vscode.l10n.t('{0} more entries not listed: type the path in a terminal or open the volume in the Explorer', sorted.length - BROWSE_LIMIT), kind: vscode.QuickPickItemKind.Separator, action: 'open', path: folder });
  return items;
}

/** The questions of a download: a file or folder browsed on the volume, and the policy. */
export async function downloadFlow(volume: NasVolume, fileSystem: SftpFileSystem, known: { remote?: string; policy?: ExistingFilePolicy }): Promise<{ remote: string; policy: ExistingFilePolicy } | undefined> {
  const title = vscode.l10n.t('Download from "{0}"', pickText(volume.name));
  const totalSteps = (known.remote === undefined ? 1 : 0) + (known.policy ? 0 : 1);
  const state: { remote?: string; policy?: ExistingFilePolicy } = { ...known };
  const askPolicyStep: Step = async (input) => {
    state.policy = await askPolicy(input, { title, step: totalSteps, totalSteps }, state.policy);
  };
  const browse =
    (folder: string): Step =>
    async (input) => {
      const entries = await fileSystem.readDirectory(volumeUri(volume.storage_id, folder));
      const items = browseItems(folder, entries);
      const picked = await input.showQuickPick({ title, step: 1, totalSteps, items, placeholder: vscode.l10n.t('{0}: pick a file or a folder to open (Back goes up)', pickText(folder)) });
      if (picked.action === 'open') return browse(picked.path);
      state.remote = picked.path;
      return known.policy ? undefined : askPolicyStep;
    };
  if (totalSteps > 0 && !(await MultiStepInput.run(known.remote === undefined ? browse('/') : askPolicyStep))) return undefined;
  return state.remote !== undefined && state.policy ? { remote: nasCore().remoteJoin(state.remote), policy: state.policy } : undefined;
}
