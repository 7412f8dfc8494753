// New GPU Kernel… (docs/notebooks.md): a Jupyter task made for a notebook — the GPU and region by live stock
// and price (the exact card and region picked is what is created; nothing is swapped), a Jupyter image from
// the create wizard's templates, a NAS volume of that region (the NAS area's run hook, as Run on GPU picks
// it) mounted as the Jupyter working folder, then the ¥/h in a review whose default is Cancel. The task is
// created with a token the extension made (../jupyterTokens.ts); the caller waits for Running and the URL.

import * as vscode from 'vscode';
import type { TaskCreateBody } from '../../core/compute/api';
import { isJupyterImage } from '../../core/notebooks/jupyterLaunch';
import { formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import { shownValue } from '../../core/shownValue';
import { resourceServiceOf } from '../client/computeServices';
import type { JupyterTokens } from '../jupyterTokens';
import { flattenRegions, regionPickItem, type RegionChoice, type RegionPickItem } from '../resources/index';
import type { ExtensionServices } from '../services';
import { buildTaskCreateBody, imageTemplates, preselectRegion, type TaskCreateInput } from '../tasks/index';
import { deviceLabel, effectivePrice } from '../ui/format';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import { review } from '../ui/review';
import { JUPYTER_PORT } from './jupyterTasks';

/** Where the volume is mounted: the Jupyter images' work folder, made the server's root (NOTEBOOK_ARGS). */
export const KERNEL_WORK_DIR = '/home/jovyan/work';

export interface NewKernelHooks {
  /** An Active NAS volume in the region (the NAS area's Run on GPU hook); undefined when none was picked. */
  pickVolume(regionName: string, preferred?: number): Promise<number | undefined>;
}

export interface NewKernelPlan {
  body: TaskCreateBody;
  /** Keeps the task's token once it has an id. */
  keep(profileId: string, taskId: number): Thenable<void>;
  yuanPerHour: number | undefined;
  /** The image and region it starts with (told to the preheat offer with how long the start took). */
  image: string;
  region: string;
}

function kernelTaskName(): string {
  const now = new Date();
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `kernel-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

/** Asks GPU, image, volume and the go-ahead; undefined when the user backs out at any point. */
export async function planNewKernel(services: ExtensionServices, hooks: NewKernelHooks, tokens: JupyterTokens, profileLabel: string): Promise<NewKernelPlan | undefined> {
  const title = vscode.l10n.t('New GPU Kernel');
  const at = (step: number) => ({ title, step, totalSteps: 2 });
  const devices = vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Searching resources…') }, () => resourceServiceOf(services).gpuDeployments());
  const templates = imageTemplates(vscode.l10n).filter((template) => isJupyterImage(template.image));
  const state: { choice?: RegionChoice; image: string } = { image: templates[0]?.image ?? '' };
  const askImage: Step = async (input) => {
    type ImageItem = vscode.QuickPickItem & { image?: string };
    const items: ImageItem[] = [...templates.map((template) => ({ label: template.label, description: template.image, image: template.image })), { label: vscode.l10n.t('$(edit) Other Jupyter image…') }];
    const picked = await input.showQuickPick<ImageItem>({ ...at(2), items, placeholder: vscode.l10n.t('A Jupyter image (it reads JUPYTER_TOKEN)'), activeItem: items.find((item) => item.image === state.image) ?? items[0] });
    if (picked.image !== undefined) {
      state.image = picked.image;
      return undefined;
    }
    return async (again) => {
      state.image = (await again.showInputBox({ ...at(2), value: state.image, prompt: vscode.l10n.t('A Jupyter image (registry/jupyter/…:tag)'), validate: (text) => (isJupyterImage(text) ? undefined : vscode.l10n.t('Use a Jupyter image, such as {0}.', templates[0]?.image ?? 'quay.io/jupyter/base-notebook')) })).trim();
    };
  };
  const askGpu: Step = async (input) => {
    const choices = flattenRegions((await devices).results);
    const items = choices.map(regionPickItem);
    const preselected = preselectRegion(choices, state.choice ? { deviceName: state.choice.device.device_name, region: state.choice.region.region } : undefined);
    const picked = await input.showQuickPick<RegionPickItem>({ ...at(1), items, placeholder: vscode.l10n.t('GPU and region (price per hour, stock): this exact card is what starts'), ...(preselected ? { activeItem: items[choices.indexOf(preselected)] } : {}) });
    state.choice = picked.choice;
    return askImage;
  };
  if (!(await MultiStepInput.run(askGpu)) || !state.choice) return undefined;
  const choice = state.choice;
  const storageId = await hooks.pickVolume(choice.region.region_name);
  if (storageId === undefined) return undefined;
  const price = effectivePrice(choice.region);
  const yuanPerHour = price !== undefined && price !== null ? pointsPerSecondToYuanPerHour(price) : undefined;
  const rate = yuanPerHour !== undefined ? formatYuanPerHour(yuanPerHour) : vscode.l10n.t('price not known');
  const create = tokens.forCreate(state.image, { NOTEBOOK_ARGS: `--ServerApp.root_dir=${KERNEL_WORK_DIR}` });
  if (!create) return undefined;
  const input: TaskCreateInput = {
    name: kernelTaskName(),
    region: choice.region,
    image: state.image,
    ports: [JUPYTER_PORT],
    points: 1,
    env: create.env,
    startCommand: '',
    nasMounts: [{ storage_id: storageId, target_dir: KERNEL_WORK_DIR }],
  };
  const gpu = shownValue(`${deviceLabel(choice.device)} · ${choice.region.region_name}`, 120);
  const go = await review({
    title: vscode.l10n.t('Start a GPU kernel on {0}?', gpu),
    placeholder: vscode.l10n.t('{0} while the kernel\'s task runs (pause or stop it in Tasks)', rate),
    go: { label: vscode.l10n.t('Start Kernel ({0})', rate), description: vscode.l10n.t('Profile: {0}', profileLabel) },
    facts: [
      vscode.l10n.t('GPU: {0}', gpu),
      vscode.l10n.t('Image: {0}', shownValue(state.image, 120)),
      vscode.l10n.t('Working folder: NAS volume {0} at {1}', storageId, KERNEL_WORK_DIR),
      vscode.l10n.t('Task: {0} (1 node, port {1}; its Jupyter token is kept in secret storage)', input.name, JUPYTER_PORT),
    ],
  });
  if (!go) return undefined;
  return { body: buildTaskCreateBody(input), keep: create.keep, yuanPerHour, image: state.image, region: choice.region.region };
}
