// Resource commands: refresh, filter, search (every region in one QuickPick → create a task there),
// "Create Task Here" from a region row, and a device's or region's JSON.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import { deviceLabel } from '../ui/format';
import { pickResourceFilter, type ResourceFilterStore } from './resourceFilter';
import { gpuModelsOf } from './resourceNarrowing';
import { flattenRegions, regionPickItem, searchAllDevices, searchDevices, type RegionChoice, type RegionPickItem } from './resourceSearch';
import { DeviceItem, RegionItem, type ResourcesTree } from './resourcesTree';
import { keepItemOrder } from '../ui/quickPickOrder';

/** What the resource commands receive from the compute views (views/index.ts builds it): declared here, by the consumer. */
export interface ResourceCommandContext {
  services: ExtensionServices;
  resources: ResourcesTree;
  filter: ResourceFilterStore;
  /** Create Task… starting on a GPU and region. */
  runCreateWizard: (hint?: { deviceName: string; region: string }) => Promise<unknown>;
}

export const resourceCommands: readonly CommandEntry<ResourceCommandContext>[] = [
  { id: Commands.resourcesRefresh, doing: vscode.l10n.t('Refresh resources'), create: ({ resources }) => () => resources.refresh() },
  { id: Commands.resourcesFilter, doing: vscode.l10n.t('Filter resources'), create: ({ services, filter }) => () =>
    pickResourceFilter(filter, async () => gpuModelsOf(await searchAllDevices(services, filter, new AbortController().signal))) },
  {
    id: Commands.resourcesSearch,
    doing: vscode.l10n.t('Search resources'),
    create: ({ services, filter, runCreateWizard }) => async () => {
      if (!(await services.requireProfile())) return;
      const choice = await searchRegions(services, filter);
      if (choice) await runCreateWizard({ deviceName: choice.device.device_name, region: choice.region.region });
    },
  },
  {
    id: Commands.resourcesCreateTaskHere,
    doing: vscode.l10n.t('Create task'),
    create: ({ runCreateWizard }) => async (arg) => {
      if (arg instanceof RegionItem) return runCreateWizard({ deviceName: arg.device.device_name, region: arg.region.region });
      return vscode.commands.executeCommand(Commands.resourcesSearch);
    },
  },
  {
    id: Commands.resourcesShowJson,
    doing: vscode.l10n.t('Show resource JSON'),
    create: ({ services, filter }) => async (arg) => {
      if (!(arg instanceof DeviceItem) && !(arg instanceof RegionItem)) return;
      await showResourceJson(services, filter, arg);
    },
  },
];

/** Every region of every device in one searchable QuickPick; resolves with the pick. */
function searchRegions(services: ExtensionServices, filter: ResourceFilterStore): Promise<RegionChoice | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<RegionPickItem>();
    const controller = new AbortController();
    let settled = false;
    const finish = (choice: RegionChoice | undefined): void => {
      if (settled) return;
      settled = true;
      controller.abort();
      pick.dispose();
      resolve(choice);
    };
    pick.title = vscode.l10n.t('Search Resources ({0})', filter.describe());
    pick.placeholder = vscode.l10n.t('Type a GPU, region or price; pick one to create a task there');
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    keepItemOrder(pick);
    pick.busy = true;
    pick.onDidAccept(() => finish(pick.selectedItems[0]?.choice));
    pick.onDidHide(() => finish(undefined));
    pick.show();
    searchDevices(services, filter, controller.signal).then(
      (devices) => {
        if (settled) return;
        pick.busy = false;
        pick.items = flattenRegions(devices).map(regionPickItem);
        if (pick.items.length === 0) pick.placeholder = vscode.l10n.t('No resources match the current filter (Compute: Filter Resources…)');
      },
      (error: unknown) => {
        if (settled) return;
        finish(undefined);
        services.reportError(error, vscode.l10n.t('Search resources'));
      },
    );
  });
}

/** Read-only JSON of a device or one region, fetched fresh each time the document refreshes. */
async function showResourceJson(services: ExtensionServices, filter: ResourceFilterStore, item: DeviceItem | RegionItem): Promise<void> {
  const deviceName = item.device.device_name;
  const regionTag = item instanceof RegionItem ? item.region.region : undefined;
  const title = `${deviceLabel(item.device)}${item instanceof RegionItem ? ` · ${item.region.region_name}` : ''}.json`;
  await services.openReadOnlyDocument({
    key: `resource/${deviceName}/${regionTag ?? '*'}`,
    title,
    language: 'json',
    content: async () => {
      const devices = await searchDevices(services, filter, new AbortController().signal);
      const device = devices.find((candidate) => candidate.device_name === deviceName);
      const value = regionTag ? device?.regions.find((region) => region.region === regionTag) : device;
      // Gone from the latest search (sold and delisted, or the filter changed): show what the tree had.
      const shown = value ?? (item instanceof RegionItem ? item.region : item.device);
      return `${JSON.stringify(shown, null, 2)}\n`;
    },
  });
}
