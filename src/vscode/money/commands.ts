// The money area's command-table entries.
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import type { SpendPanel } from './spendPanel';

export interface MoneyContext {
  services: ExtensionServices;
  panel: SpendPanel;
}

export const MONEY_COMMANDS: readonly CommandEntry<MoneyContext>[] = [
  {
    id: Commands.spendShow,
    doing: 'Show spend',
    create:
      ({ services, panel }) =>
      async () => {
        if (await services.requireProfile()) panel.show();
      },
  },
];
