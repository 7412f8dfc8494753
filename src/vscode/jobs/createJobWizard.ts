// Create Job…: a template (PyTorch/CUDA running a command, vLLM batch inference, or your own image),
// the command, a resource by stock and price (Spot preselected), completions, parallelism, indexed
// mode, retries, timeout, env, an optional NAS volume (picked among the Active ones of the GPU's region)
// and its mount directory; the cost before it runs.

import * as vscode from 'vscode';
import { buildJobBody } from '../../core/jobs/jobBody';
import { JOB_TEMPLATES, type JobTemplate } from '../../core/jobs/templates';
import { loadVolumes, mountChoices, mountPlaceholder } from '../nas/index';
import { jobServiceOf, resourceServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { deviceLabel } from '../ui/format';
import { askSeconds, confirmJobCost, pickResource } from './jobInputs';

const ENV_ENTRY = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

function templateLabel(template: JobTemplate): string {
  switch (template.id) {
    case 'pytorch':
      return vscode.l10n.t('PyTorch (CUDA): run a command');
    case 'vllm-batch':
      return vscode.l10n.t('vLLM batch inference');
    case 'custom':
      return vscode.l10n.t('Your own image');
  }
}

async function askInt(title: string, value: number, min: number, max: number): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    value: String(value),
    validateInput: (input) => (/^\d{1,6}$/.test(input.trim()) && Number(input) >= min && Number(input) <= max ? undefined : vscode.l10n.t('A whole number from {0} to {1}', min, max)),
  });
  return text === undefined ? undefined : Number(text.trim());
}

/** The first step: its title and rows (also read by the in-host display-language check, test/integration/l10n). */
export function templateStep(): { title: string; items: (vscode.QuickPickItem & { template: JobTemplate })[] } {
  return {
    title: vscode.l10n.t('Create Job: template'),
    items: JOB_TEMPLATES.map((template) => ({ label: templateLabel(template), description: template.image, template })),
  };
}

/** Returns the new job id, or undefined when the user backed out. */
export async function createJobWizard(services: ExtensionServices, state: RemoteState): Promise<number | undefined> {
  const profile = await services.requireProfile();
  if (!profile) return undefined;
  const volumes = loadVolumes(state);
  const first = templateStep();
  const picked = await vscode.window.showQuickPick(first.items, { title: first.title });
  if (!picked) return undefined;
  const template = picked.template;
  const name = await vscode.window.showInputBox({ title: vscode.l10n.t('Job name'), value: `job-${template.id}`, validateInput: (v) => (/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v) ? undefined : vscode.l10n.t('Letters, digits, . _ - (up to 64)')) });
  if (name === undefined) return undefined;
  const image = await vscode.window.showInputBox({ title: vscode.l10n.t('Container image'), value: template.image, validateInput: (v) => (/^\S+$/.test(v) ? undefined : vscode.l10n.t('An image reference without spaces')) });
  if (image === undefined) return undefined;
  const command = await vscode.window.showInputBox({ title: vscode.l10n.t('Command'), value: template.command, prompt: vscode.l10n.t('Run by /bin/sh -c') , validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a command') : undefined) });
  if (command === undefined) return undefined;
  const choice = await pickResource(resourceServiceOf(services));
  if (!choice) return undefined;
  const completions = await askInt(vscode.l10n.t('Completions (successful pod runs needed)'), 1, 1, 100);
  if (completions === undefined) return undefined;
  const parallelism = await askInt(vscode.l10n.t('Parallelism (pods at once, each billed)'), 1, 1, Math.min(20, completions));
  if (parallelism === undefined) return undefined;
  let indexed = false;
  if (completions > 1) {
    const mode = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Indexed'), description: vscode.l10n.t('each pod gets JOB_COMPLETION_INDEX'), value: true },
        { label: vscode.l10n.t('Not indexed'), value: false },
      ],
      { title: vscode.l10n.t('Completion mode') },
    );
    if (!mode) return undefined;
    indexed = mode.value;
  }
  const retries = await askInt(vscode.l10n.t('Retries (failed pods retried before the job fails)'), 0, 0, 10);
  if (retries === undefined) return undefined;
  const timeoutSec = await askSeconds(vscode.l10n.t('Timeout: the job is stopped after'), 3600, 7 * 86_400);
  if (timeoutSec === undefined) return undefined;
  const estimatedSec = choice.spot ? await askSeconds(vscode.l10n.t('Spot: estimated run time (below the timeout)'), Math.max(1, Math.floor(timeoutSec / 2)), Math.max(1, timeoutSec - 1)) : undefined;
  if (choice.spot && estimatedSec === undefined) return undefined;
  const envText = await vscode.window.showInputBox({
    title: vscode.l10n.t('Environment variables (optional)'),
    value: template.env.map((entry) => `${entry.name}=${entry.value}`).join(', '),
    prompt: vscode.l10n.t('NAME=value, separated by commas'),
    validateInput: (v) => (v.trim() === '' || v.split(',').every((part) => ENV_ENTRY.test(part.trim())) ? undefined : vscode.l10n.t('Use NAME=value, separated by commas')),
  });
  if (envText === undefined) return undefined;
  const env = envText.trim() === '' ? [] : envText.split(',').map((part) => {
    const match = ENV_ENTRY.exec(part.trim()) as RegExpExecArray;
    return { name: match[1] as string, value: match[2] as string };
  });
  // A pick of the Active volumes in the GPU's region (a volume mounts only in its own region), not a typed id.
  const regionName = choice.region.region_name;
  const loaded = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading NAS volumes…') }, () => volumes);
  const mount = mountChoices(loaded, regionName, vscode.l10n.t('The NAS volumes could not be read; the job is created without a mount.'));
  const pickedVolume = await vscode.window.showQuickPick(mount.items, { title: vscode.l10n.t('NAS volume to mount'), placeHolder: mountPlaceholder(regionName) });
  if (!pickedVolume) return undefined;
  let volume: { storageId: number; targetDir: string } | undefined;
  if (pickedVolume.volume) {
    const targetDir = await vscode.window.showInputBox({ title: vscode.l10n.t('Mount directory in the container'), value: '/mnt/nas', validateInput: (v) => (v.startsWith('/') && !v.split('/').includes('..') ? undefined : vscode.l10n.t('An absolute path')) });
    if (targetDir === undefined) return undefined;
    volume = { storageId: pickedVolume.volume.storage_id, targetDir };
  }
  const resourceLabel = `${deviceLabel(choice.device)} · ${choice.region.region_name}`;
  const ok = await confirmJobCost({ name, resourceLabel, pointsPerSecond: choice.pointsPerSecond, spot: choice.spot, completions, parallelism, timeoutSec, ...(estimatedSec !== undefined ? { estimatedSec } : {}), profile: profile.label });
  if (!ok) return undefined;
  const body = buildJobBody({
    name,
    resource: { resource: choice.region.mark.resource, region_name: choice.region.region_name, mark: choice.region.mark.mark },
    image,
    command,
    ...(volume ? { workdir: volume.targetDir } : {}),
    spot: choice.spot,
    ...(estimatedSec !== undefined ? { estimatedSec } : {}),
    timeoutSec,
    completions,
    parallelism,
    indexed,
    retries,
    env,
    ...(volume ? { volume } : {}),
  });
  return jobServiceOf(services, () => state.wake()).create(body);
}
