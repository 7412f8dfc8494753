// The compute area's command-table entries: resources, tasks and storage.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ComputeContext } from './computeContext';
import { resourceCommands } from '../resources/resourceCommands';
import { runStorageCheckWizard } from '../storage/storageCheck';
import { taskCommands } from '../tasks/taskCommands';
import { tasksViewCommands } from '../tasks/tasksViewCommands';

const storageCommands: readonly CommandEntry<ComputeContext>[] = [
  { id: Commands.storageRefresh, doing: vscode.l10n.t('Refresh storage'), create: ({ storage }) => () => storage.refresh() },
  {
    id: Commands.storageCheck,
    doing: vscode.l10n.t('Check storage credentials'),
    create: ({ services, storage }) => (arg?: unknown) => runStorageCheckWizard(services, arg, () => storage.listed()),
  },
];

export const COMPUTE_COMMANDS: readonly CommandEntry<ComputeContext>[] = [...resourceCommands, ...taskCommands, ...tasksViewCommands, ...storageCommands];
