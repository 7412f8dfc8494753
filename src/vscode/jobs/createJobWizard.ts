// Create Job…: one multi-step flow (ui/multiStepInput: a title and "n/16" on every step, Back keeps the
// answers): a template (PyTorch/CUDA running a command, vLLM batch inference, or your own image), name,
// image, command, a resource by stock and price (Spot preselected), completions, parallelism, indexed
// mode, retries, timeout, env, an optional NAS volume (picked among the Active ones of the GPU's region)
// and its mount directory; then the review with the cost, opening on Cancel. A question that does not
// apply (indexed mode for one completion, the Spot estimate, the mount directory) is skipped, keeping
// every other step's number.

import * as vscode from 'vscode';
import { buildJobBody } from '../../core/jobs/jobBody';
import { shownValue } from '../../core/shownValue';
import type { JobTemplate } from '../../core/jobs/templates';
import { templateStep } from '../choices/jobTemplates';
import { loadVolumes, mountChoices, mountPlaceholder, type LoadedVolumes, type MountItem } from '../choices/mountChoices';
import { jobServiceOf, resourceServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { deviceLabel } from '../ui/format';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { factRows } from '../ui/review';
import { jobCostReview, resourceSteps, type ResourceChoice } from './jobInputs';

const ENV_ENTRY = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;
const STEPS = 16;
const MAX_TIMEOUT = 7 * 86_400;

function wholeNumber(min: number, max: number): (text: string) => string | undefined {
  return (text) => (/^\d{1,7}$/.test(text.trim()) && Number(text) >= min && Number(text) <= max ? undefined : vscode.l10n.t('A whole number from {0} to {1}', min, max));
}

function seconds(max: number): (text: string) => string | undefined {
  return (text) => (/^\d{1,7}$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= max ? undefined : vscode.l10n.t('A whole number of seconds from 1 to {0}', max));
}

function parseEnv(text: string): { name: string; value: string }[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const match = ENV_ENTRY.exec(part.trim()) as RegExpExecArray;
    return { name: match[1] as string, value: match[2] as string };
  });
}

interface Answers {
  template?: JobTemplate;
  name: string;
  image: string;
  command: string;
  choice?: ResourceChoice;
  spot?: boolean;
  completions: string;
  parallelism: string;
  indexed: boolean;
  retries: string;
  timeout: string;
  estimate?: string;
  env: string;
  volume?: MountItem['volume'];
  targetDir: string;
}

/** What the review lists below its answers: every value the job will be created with. */
function reviewFacts(answers: Answers, env: readonly { name: string; value: string }[]): string[] {
  return [
    vscode.l10n.t('Job name: {0}', shownValue(answers.name, 80)),
    vscode.l10n.t('Image: {0}', shownValue(answers.image, 300)),
    vscode.l10n.t('Command: {0}', shownValue(answers.command, 600)),
    ...env.map((entry) => vscode.l10n.t('Env {0} = {1}', entry.name, JSON.stringify(shownValue(entry.value, 160)))),
    ...(answers.volume ? [vscode.l10n.t('Volume {0} mounted at {1}; the command runs in {2}', shownValue(answers.volume.name, 80), shownValue(answers.targetDir, 200), shownValue(answers.targetDir, 200))] : []),
    vscode.l10n.t('Retries: {0}', answers.retries.trim()),
  ];
}

/** Returns the new job id, or undefined when the user backed out. */
export async function createJobWizard(services: ExtensionServices, state: RemoteState): Promise<number | undefined> {
  const profile = await services.requireProfile();
  if (!profile) return undefined;
  const volumes = loadVolumes(state);
  const first = templateStep();
  const at = (step: number) => ({ title: first.title, step, totalSteps: STEPS });
  const answers: Answers = { name: '', image: '', command: '', completions: '1', parallelism: '1', indexed: false, retries: '0', timeout: '3600', env: '', targetDir: '/mnt/nas' };
  let go = false;

  const review: Step = async (input) => {
    const choice = answers.choice as ResourceChoice;
    const estimatedSec = choice.spot && answers.estimate !== undefined ? Number(answers.estimate.trim()) : undefined;
    const cost = jobCostReview({
      name: answers.name,
      resourceLabel: `${deviceLabel(choice.device)} · ${choice.region.region_name}`,
      pointsPerSecond: choice.pointsPerSecond,
      spot: choice.spot,
      completions: Number(answers.completions.trim()),
      parallelism: Number(answers.parallelism.trim()),
      timeoutSec: Number(answers.timeout.trim()),
      ...(estimatedSec !== undefined ? { estimatedSec } : {}),
      profile: profile.label,
    });
    go = await input.showReview({ ...at(STEPS), ...cost, ...factRows(reviewFacts(answers, parseEnv(answers.env))) });
  };
  const askMountDir: Step = async (input) => {
    answers.targetDir = await input.showInputBox({ ...at(15), value: answers.targetDir, prompt: vscode.l10n.t('Mount directory in the container'), validate: (v) => (v.startsWith('/') && !v.split('/').includes('..') ? undefined : vscode.l10n.t('An absolute path')) });
    return review;
  };
  // A pick of the Active volumes in the GPU's region (a volume mounts only in its own region), not a typed id.
  const askVolume: Step = async (input) => {
    const regionName = (answers.choice as ResourceChoice).region.region_name;
    const loaded: LoadedVolumes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading NAS volumes…') }, () => volumes);
    const mount = mountChoices(loaded, regionName, vscode.l10n.t('The NAS volumes could not be read; the job is created without a mount.'));
    const active = mount.items.find((item) => item.volume !== undefined && item.volume.storage_id === answers.volume?.storage_id) ?? mount.none;
    answers.volume = (await input.showQuickPick({ ...at(14), items: mount.items, placeholder: mountPlaceholder(regionName), activeItem: active })).volume;
    return answers.volume ? askMountDir : review;
  };
  const askEnv: Step = async (input) => {
    answers.env = await input.showInputBox({
      ...at(13),
      value: answers.env,
      prompt: vscode.l10n.t('Environment variables (optional): NAME=value, separated by commas'),
      validate: (v) => (v.trim() === '' || v.split(',').every((part) => ENV_ENTRY.test(part.trim())) ? undefined : vscode.l10n.t('Use NAME=value, separated by commas')),
    });
    return askVolume;
  };
  const askEstimate: Step = async (input) => {
    const timeoutSec = Number(answers.timeout.trim());
    answers.estimate = await input.showInputBox({ ...at(12), value: answers.estimate ?? String(Math.max(1, Math.floor(timeoutSec / 2))), prompt: vscode.l10n.t('Spot: estimated run time in seconds (below the timeout)'), validate: seconds(Math.max(1, timeoutSec - 1)) });
    return askEnv;
  };
  const askTimeout: Step = async (input) => {
    answers.timeout = await input.showInputBox({ ...at(11), value: answers.timeout, prompt: vscode.l10n.t('Timeout in seconds: the job is stopped after'), validate: seconds(MAX_TIMEOUT) });
    return answers.choice?.spot ? askEstimate : askEnv;
  };
  const askRetries: Step = async (input) => {
    answers.retries = await input.showInputBox({ ...at(10), value: answers.retries, prompt: vscode.l10n.t('Retries (failed pods retried before the job fails)'), validate: wholeNumber(0, 10) });
    return askTimeout;
  };
  const askMode: Step = async (input) => {
    const items = [
      { label: vscode.l10n.t('Indexed'), description: vscode.l10n.t('each pod gets JOB_COMPLETION_INDEX'), value: true },
      { label: vscode.l10n.t('Not indexed'), value: false },
    ];
    answers.indexed = (await input.showQuickPick({ ...at(9), items, placeholder: vscode.l10n.t('Completion mode'), activeItem: items.find((item) => item.value === answers.indexed) })).value;
    return askRetries;
  };
  const askParallelism: Step = async (input) => {
    answers.parallelism = await input.showInputBox({ ...at(8), value: answers.parallelism, prompt: vscode.l10n.t('Parallelism (pods at once, each billed)'), validate: wholeNumber(1, Math.min(20, Number(answers.completions.trim()))) });
    return Number(answers.completions.trim()) > 1 ? askMode : askRetries;
  };
  const askCompletions: Step = async (input) => {
    answers.completions = await input.showInputBox({ ...at(7), value: answers.completions, prompt: vscode.l10n.t('Completions (successful pod runs needed)'), validate: wholeNumber(1, 100) });
    return askParallelism;
  };
  const askResource = resourceSteps(resourceServiceOf(services), answers, at, 5, askCompletions);
  const askCommand: Step = async (input) => {
    answers.command = await input.showInputBox({ ...at(4), value: answers.command, prompt: vscode.l10n.t('Command, run by /bin/sh -c'), validate: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a command') : undefined) });
    return askResource;
  };
  const askImage: Step = async (input) => {
    answers.image = await input.showInputBox({ ...at(3), value: answers.image, prompt: vscode.l10n.t('Container image'), validate: (v) => (/^\S+$/.test(v) ? undefined : vscode.l10n.t('An image reference without spaces')) });
    return askCommand;
  };
  const askName: Step = async (input) => {
    answers.name = await input.showInputBox({ ...at(2), value: answers.name, prompt: vscode.l10n.t('Job name'), validate: (v) => (/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v) ? undefined : vscode.l10n.t('Letters, digits, . _ - (up to 64)')) });
    return askImage;
  };
  const finished = await MultiStepInput.run(async function askTemplate(input) {
    const picked = await input.showQuickPick({ ...at(1), items: first.items, placeholder: first.placeholder, activeItem: first.items.find((item) => item.template === answers.template) });
    // Another template starts from its own image, command and env; the same one keeps what was typed.
    if (picked.template !== answers.template) {
      answers.template = picked.template;
      Object.assign(answers, { name: `job-${picked.template.id}`, image: picked.template.image, command: picked.template.command, env: picked.template.env.map((entry) => `${entry.name}=${entry.value}`).join(', ') });
    }
    return askName;
  });
  const choice = answers.choice;
  if (!finished || !go || !choice) return undefined;
  const estimatedSec = choice.spot && answers.estimate !== undefined ? Number(answers.estimate.trim()) : undefined;
  const volume = answers.volume ? { storageId: answers.volume.storage_id, targetDir: answers.targetDir } : undefined;
  const body = buildJobBody({
    name: answers.name,
    resource: { resource: choice.region.mark.resource, region_name: choice.region.region_name, mark: choice.region.mark.mark },
    image: answers.image,
    command: answers.command,
    ...(volume ? { workdir: volume.targetDir } : {}),
    spot: choice.spot,
    ...(estimatedSec !== undefined ? { estimatedSec } : {}),
    timeoutSec: Number(answers.timeout.trim()),
    completions: Number(answers.completions.trim()),
    parallelism: Number(answers.parallelism.trim()),
    indexed: Number(answers.completions.trim()) > 1 && answers.indexed,
    retries: Number(answers.retries.trim()),
    env: parseEnv(answers.env),
    ...(volume ? { volume } : {}),
  });
  return jobServiceOf(services, () => state.wake()).create(body);
}
