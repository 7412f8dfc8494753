// The Resources view's filters: device type and task type go to the platform's query (docs/platform.md),
// "hide sold-out" is applied locally. Remembered per workspace; defaults come from settings.
import { StateKeys } from '../commandIds';
import * as vscode from 'vscode';
import type { Config } from '../config';

export interface ResourceFilter {
  /** `device_type` values, e.g. ['GpuDevice'] or ['GpuDevice', 'CpuDevice']. */
  deviceTypes: string[];
  /** `task_type`, e.g. 'Deployment'. */
  taskType: string;
  hideSoldOut: boolean;
}

const STATE_KEY = StateKeys.resourcesFilter;
const DEVICE_TYPES: readonly { value: string; label: string }[] = [
  { value: 'GpuDevice', label: vscode.l10n.t('GPU devices') },
  { value: 'CpuDevice', label: vscode.l10n.t('CPU devices') },
];
const TASK_TYPES: readonly { value: string; label: string }[] = [{ value: 'Deployment', label: vscode.l10n.t('Deployment (elastic deployment service)') }];

function defaultsFromSettings(config: Config): ResourceFilter {
  return { deviceTypes: config.resourcesDeviceTypes, taskType: config.resourcesTaskType, hideSoldOut: false };
}

function isResourceFilter(value: unknown): value is ResourceFilter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    Array.isArray(candidate.deviceTypes) &&
    candidate.deviceTypes.every((item) => typeof item === 'string') &&
    typeof candidate.taskType === 'string' &&
    typeof candidate.hideSoldOut === 'boolean'
  );
}

export class ResourceFilterStore {
  private readonly changed = new vscode.EventEmitter<ResourceFilter>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly config: Config,
  ) {}

  get current(): ResourceFilter {
    const saved = this.state.get<unknown>(STATE_KEY);
    return isResourceFilter(saved) ? saved : defaultsFromSettings(this.config);
  }

  /** The platform query for resource search; both parameters are required, so never empty. */
  query(): { task_type: string; device_type: string } {
    const filter = this.current;
    const deviceTypes = filter.deviceTypes.length > 0 ? filter.deviceTypes : DEVICE_TYPES.map((type) => type.value);
    return { task_type: filter.taskType.trim() || 'Deployment', device_type: deviceTypes.join(',') };
  }

  /** Short text for the view's description, e.g. "GPU · in stock". */
  describe(): string {
    const filter = this.current;
    const devices = filter.deviceTypes.map((type) => (type === 'GpuDevice' ? 'GPU' : type === 'CpuDevice' ? 'CPU' : type)).join('+');
    return filter.hideSoldOut ? `${devices} · in stock` : devices;
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

interface FilterPickItem extends vscode.QuickPickItem {
  apply: (filter: ResourceFilter) => void;
}

/** One multi-select QuickPick with the filters grouped; returns false when the user backs out. */
export async function pickResourceFilter(store: ResourceFilterStore): Promise<boolean> {
  const current = store.current;
  const items: (FilterPickItem | vscode.QuickPickItem)[] = [
    { label: vscode.l10n.t('Device type'), kind: vscode.QuickPickItemKind.Separator },
    ...DEVICE_TYPES.map(
      (type): FilterPickItem => ({
        label: type.label,
        description: type.value,
        picked: current.deviceTypes.includes(type.value),
        apply: (filter) => filter.deviceTypes.push(type.value),
      }),
    ),
    { label: vscode.l10n.t('Task type'), kind: vscode.QuickPickItemKind.Separator },
    ...TASK_TYPES.map(
      (type): FilterPickItem => ({
        label: type.label,
        description: type.value,
        picked: current.taskType === type.value,
        apply: (filter) => {
          filter.taskType = type.value;
        },
      }),
    ),
    { label: vscode.l10n.t('Regions'), kind: vscode.QuickPickItemKind.Separator },
    {
      label: vscode.l10n.t('Hide sold-out regions'),
      picked: current.hideSoldOut,
      apply: (filter) => {
        filter.hideSoldOut = true;
      },
    } satisfies FilterPickItem,
  ];
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Filter Resources'),
    placeHolder: vscode.l10n.t('Device types to list (at least one), task type, and whether to hide sold-out regions'),
  });
  if (!picked) return false;
  const next: ResourceFilter = { deviceTypes: [], taskType: current.taskType, hideSoldOut: false };
  for (const item of picked) if ('apply' in item) (item as FilterPickItem).apply(next);
  // The platform needs at least one device type; an empty pick means "everything".
  if (next.deviceTypes.length === 0) next.deviceTypes = DEVICE_TYPES.map((type) => type.value);
  await store.set(next);
  return true;
}
