// Resource commands: refresh, filter, search (every region in one QuickPick → create a task there),
// "Create Task Here" from a region row, and a device's or region's JSON.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import { registerGuarded } from './commandGuard';
import type { RegionHint } from './createTaskWizard';
import { deviceLabel } from './format';
import { pickResourceFilter, type ResourceFilterStore } from './resourceFilter';
import { flattenRegions, regionPickItem, searchDevices, type RegionChoice, type RegionPickItem } from './resourceSearch';
import { DeviceItem, RegionItem, type ResourcesTree } from './resourcesTree';

export interface ResourceCommandDeps {
  services: ExtensionServices;
  tree: ResourcesTree;
  filter: ResourceFilterStore;
  runCreateWizard: (hint?: RegionHint) => Promise<unknown>;
}

export function registerResourceCommands(deps: ResourceCommandDeps): vscode.Disposable[] {
  const { services, tree, filter } = deps;
  return [
    registerGuarded(services, 'computeToolkit.resources.refresh', 'Refresh resources', () => tree.refresh()),
    registerGuarded(services, 'computeToolkit.resources.filter', 'Filter resources', () => pickResourceFilter(filter)),
    registerGuarded(services, 'computeToolkit.resources.search', 'Search resources', async () => {
      if (!(await services.requireProfile())) return;
      const choice = await searchRegions(services, filter);
      if (choice) await deps.runCreateWizard({ deviceName: choice.device.device_name, region: choice.region.region });
    }),
    registerGuarded(services, 'computeToolkit.resources.createTaskHere', 'Create task', async (arg) => {
      if (arg instanceof RegionItem) return deps.runCreateWizard({ deviceName: arg.device.device_name, region: arg.region.region });
      return vscode.commands.executeCommand('computeToolkit.resources.search');
    }),
    registerGuarded(services, 'computeToolkit.resources.showJson', 'Show resource JSON', async (arg) => {
      if (!(arg instanceof DeviceItem) && !(arg instanceof RegionItem)) return;
      try {
        await showResourceJson(services, filter, arg);
      } catch (error) {
        services.reportError(error, 'Show resource JSON');
      }
    }),
  ];
}

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
    pick.title = `Search Resources (${filter.describe()})`;
    pick.placeholder = 'Type a GPU, region or price; pick one to create a task there';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.busy = true;
    pick.onDidAccept(() => finish(pick.selectedItems[0]?.choice));
    pick.onDidHide(() => finish(undefined));
    pick.show();
    searchDevices(services, filter, controller.signal).then(
      (devices) => {
        if (settled) return;
        pick.busy = false;
        pick.items = flattenRegions(devices).map(regionPickItem);
        if (pick.items.length === 0) pick.placeholder = 'No resources match the current filter (Compute: Filter Resources…)';
      },
      (error: unknown) => {
        if (settled) return;
        finish(undefined);
        services.reportError(error, 'Search resources');
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
