// The Resources view's filters: device type and task type go to the platform's query (docs/platform.md);
// GPU model, minimum VRAM, maximum ¥/h, region and "hide sold-out" are applied here, to the view, the
// search command and the create wizard alike (resourceNarrowing.ts). Remembered per workspace;
// defaults come from settings.
import { StateKeys } from '../commandIds';
import * as vscode from 'vscode';
import type { Config } from '../config';
import { describeNarrowing, isNarrowing, parsePositiveNumber, type ResourceNarrowing } from './resourceNarrowing';

export interface ResourceFilter extends ResourceNarrowing {
  /** `device_type` values, e.g. ['GpuDevice'] or ['GpuDevice', 'CpuDevice']. */
  deviceTypes: string[];
  /** `task_type`, e.g. 'Deployment'. */
  taskType: string;
}

const STATE_KEY = StateKeys.resourcesFilter;
const DEVICE_TYPES: readonly { value: string; label: string }[] = [
  { value: 'GpuDevice', label: vscode.l10n.t('GPU devices') },
  { value: 'CpuDevice', label: vscode.l10n.t('CPU devices') },
];

function defaultsFromSettings(config: Config): ResourceFilter {
  return { deviceTypes: config.resourcesDeviceTypes, taskType: config.resourcesTaskType, hideSoldOut: false, gpuModels: [], region: '' };
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);

/** A stored filter (possibly written by an older version, without the newer fields), or undefined. */
export function readResourceFilter(value: unknown): ResourceFilter | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Record<string, unknown>;
  if (!Array.isArray(candidate.deviceTypes) || !candidate.deviceTypes.every((item) => typeof item === 'string')) return undefined;
  if (typeof candidate.taskType !== 'string' || typeof candidate.hideSoldOut !== 'boolean') return undefined;
  const filter: ResourceFilter = {
    deviceTypes: candidate.deviceTypes as string[],
    taskType: candidate.taskType,
    hideSoldOut: candidate.hideSoldOut,
    gpuModels: Array.isArray(candidate.gpuModels) ? candidate.gpuModels.filter((item): item is string => typeof item === 'string') : [],
    region: typeof candidate.region === 'string' ? candidate.region : '',
  };
  const minVramGb = positive(candidate.minVramGb);
  const maxYuanPerHour = positive(candidate.maxYuanPerHour);
  if (minVramGb !== undefined) filter.minVramGb = minVramGb;
  if (maxYuanPerHour !== undefined) filter.maxYuanPerHour = maxYuanPerHour;
  return filter;
}

export class ResourceFilterStore {
  private readonly changed = new vscode.EventEmitter<ResourceFilter>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly config: Config,
  ) {}

  get current(): ResourceFilter {
    return readResourceFilter(this.state.get<unknown>(STATE_KEY)) ?? defaultsFromSettings(this.config);
  }

  /** The platform query for resource search; both parameters are required, so never empty. */
  query(): { task_type: string; device_type: string } {
    const filter = this.current;
    const deviceTypes = filter.deviceTypes.length > 0 ? filter.deviceTypes : DEVICE_TYPES.map((type) => type.value);
    return { task_type: filter.taskType.trim() || 'Deployment', device_type: deviceTypes.join(',') };
  }

  /** Short text for the view's description, e.g. "GPU · ≥ 24 GB · in stock". */
  describe(): string {
    const filter = this.current;
    const devices = filter.deviceTypes.map((type) => (type === 'GpuDevice' ? 'GPU' : type === 'CpuDevice' ? 'CPU' : type)).join('+');
    return [devices, ...describeNarrowing(filter, { inStock: vscode.l10n.t('in stock') })].join(' · ');
  }

  async set(filter: ResourceFilter): Promise<void> {
    await this.state.update(STATE_KEY, filter);
    this.changed.fire(filter);
  }

  /** Settings changed: forget the remembered filter so the new defaults apply. */
  async resetToSettings(): Promise<void> {
    await this.state.update(STATE_KEY, undefined);
    this.changed.fire(this.current);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

interface FilterMenuItem extends vscode.QuickPickItem {
  /** Changes the filter (possibly asking more); undefined when the user backed out of that question. */
  edit: (filter: ResourceFilter) => Promise<ResourceFilter | undefined>;
}

/** A codicon before a label (kept out of the text to translate). */
const withIcon = (icon: string, text: string): string => `$(${icon}) ${text}`;
const any = (): string => vscode.l10n.t('any');
const onOff = (on: boolean): string => (on ? vscode.l10n.t('on') : vscode.l10n.t('off'));

function askNumber(title: string, prompt: string, current: number | undefined, placeHolder: string): Thenable<number | undefined | 'cancelled'> {
  return vscode.window
    .showInputBox({
      title,
      prompt,
      placeHolder,
      value: current === undefined ? '' : String(current),
      validateInput: (text) => (parsePositiveNumber(text) === 'invalid' ? vscode.l10n.t('A positive number, or empty for any') : undefined),
    })
    .then((text) => {
      if (text === undefined) return 'cancelled';
      const value = parsePositiveNumber(text);
      return value === 'invalid' ? 'cancelled' : value;
    });
}

function menu(current: ResourceFilter, knownModels: () => Promise<string[]>): FilterMenuItem[] {
  const title = vscode.l10n.t('Filter Resources');
  const withNumber = (filter: ResourceFilter, key: 'minVramGb' | 'maxYuanPerHour', value: number | undefined): ResourceFilter => {
    const next = { ...filter };
    if (value === undefined) delete next[key];
    else next[key] = value;
    return next;
  };
  return [
    ...DEVICE_TYPES.map((type): FilterMenuItem => ({
      label: withIcon(current.deviceTypes.includes(type.value) ? 'check' : 'circle-large-outline', type.label),
      description: type.value,
      edit: async (filter) => {
        const has = filter.deviceTypes.includes(type.value);
        const deviceTypes = has ? filter.deviceTypes.filter((value) => value !== type.value) : [...filter.deviceTypes, type.value];
        // The platform needs at least one device type.
        return { ...filter, deviceTypes: deviceTypes.length > 0 ? deviceTypes : filter.deviceTypes };
      },
    })),
    {
      label: withIcon('circuit-board', vscode.l10n.t('GPU model')),
      description: current.gpuModels.length > 0 ? current.gpuModels.join(', ') : any(),
      edit: async (filter) => {
        const models = [...new Set([...(await knownModels()), ...filter.gpuModels])];
        const picked = await vscode.window.showQuickPick(
          models.map((model) => ({ label: model, picked: filter.gpuModels.includes(model) })),
          { title, canPickMany: true, placeHolder: vscode.l10n.t('GPU models to list (none picked lists all)') },
        );
        return picked ? { ...filter, gpuModels: picked.map((item) => item.label) } : undefined;
      },
    },
    {
      label: withIcon('dashboard', vscode.l10n.t('Minimum VRAM per GPU')),
      description: current.minVramGb !== undefined ? `≥ ${current.minVramGb} GB` : any(),
      edit: async (filter) => {
        const value = await askNumber(title, vscode.l10n.t('Minimum memory per GPU, in GB (empty for any)'), filter.minVramGb, vscode.l10n.t('e.g. 24'));
        return value === 'cancelled' ? undefined : withNumber(filter, 'minVramGb', value);
      },
    },
    {
      label: withIcon('credit-card', vscode.l10n.t('Maximum price')),
      description: current.maxYuanPerHour !== undefined ? `≤ ¥${current.maxYuanPerHour.toFixed(2)}/h` : any(),
      edit: async (filter) => {
        const value = await askNumber(title, vscode.l10n.t('Highest price in yuan per hour (¥/h; empty for any)'), filter.maxYuanPerHour, vscode.l10n.t('e.g. 3.5'));
        return value === 'cancelled' ? undefined : withNumber(filter, 'maxYuanPerHour', value);
      },
    },
    {
      label: withIcon('location', vscode.l10n.t('Region')),
      description: current.region.trim() !== '' ? current.region : any(),
      edit: async (filter) => {
        const text = await vscode.window.showInputBox({
          title,
          prompt: vscode.l10n.t('Region code or part of its name (empty for any)'),
          value: filter.region,
        });
        return text === undefined ? undefined : { ...filter, region: text.trim() };
      },
    },
    {
      label: withIcon(current.hideSoldOut ? 'check' : 'circle-large-outline', vscode.l10n.t('Hide sold-out regions')),
      description: onOff(current.hideSoldOut),
      edit: async (filter) => ({ ...filter, hideSoldOut: !filter.hideSoldOut }),
    },
    ...(isNarrowing(current)
      ? [{ label: withIcon('clear-all', vscode.l10n.t('Clear GPU, VRAM, price, region and stock filters')), edit: async (filter: ResourceFilter) => ({ ...filter, gpuModels: [], region: '', hideSoldOut: false, minVramGb: undefined, maxYuanPerHour: undefined }) }]
      : []),
  ];
}

/**
 * A menu of the filters, each showing its value; picking one changes it (asking for a number or a
 * region where needed) and applies it at once, then the menu comes back until the user closes it.
 * Returns true when anything changed. `knownModels` lists the GPU models the platform offers.
 */
export async function pickResourceFilter(store: ResourceFilterStore, knownModels: () => Promise<string[]>): Promise<boolean> {
  let changed = false;
  for (;;) {
    const current = store.current;
    const picked = await vscode.window.showQuickPick(menu(current, knownModels), {
      title: vscode.l10n.t('Filter Resources'),
      placeHolder: vscode.l10n.t('Pick a filter to change it; it applies at once (Esc when done)'),
    });
    if (!picked) return changed;
    const next = await picked.edit(current);
    if (!next) continue;
    if (next.minVramGb === undefined) delete next.minVramGb;
    if (next.maxYuanPerHour === undefined) delete next.maxYuanPerHour;
    await store.set(next);
    changed = true;
  }
}
