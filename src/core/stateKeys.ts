// The keys of the extension's globalState / workspaceState / SecretStorage entries (names only, no editor
// API): src/vscode/persistedState.ts types the entries; commandIds.ts re-exports the list for the rest.

/** Keys of globalState / workspaceState entries. Renaming one loses what users stored under it. */
export const StateKeys = {
  resourcesFilter: 'computeToolkit.resources.filter',
  lastCreateTask: 'computeToolkit.tasks.lastCreate',
  secretSetAt: 'computeToolkit.secretSetAt',
  chatLastModel: 'computeToolkit.chat.lastModel',
  /** Prefix: `<prefix>/<profile id>` holds the budget warnings already shown this period. */
  budgetAnnounced: 'computeToolkit.budgets.announced',
  /** Pause timers of every profile (no secrets: profile id, task id and name, times). */
  pauseTimers: 'computeToolkit.tasks.pauseTimers',
  walkthroughShown: 'computeToolkit.walkthroughShown',
  /** Idle-pause minutes per deployment: `{ [profileId]: { [taskId]: minutes } }` (no secrets). */
  deploymentIdlePause: 'computeToolkit.deployments.idlePause',
  /** SecretStorage prefix: `<prefix>/<profile id>/<task id>` holds the key a user set for one deployment. */
  deploymentKeyPrefix: 'computeToolkit.deployments.key',
  /** SecretStorage prefix: `<prefix>/<profile id>/<device id>` holds a machine's pinned host key and its key (docs/machines.md). */
  machineKeyPrefix: 'computeToolkit.machines.key',
  /** SecretStorage: the Host entries written to the machines' ssh config (no secret; kept beside the keys). */
  machineSshEntries: 'computeToolkit.machines.sshEntries',
  /** Which notebook ran on which task and kernel (no secrets): reconnect after a restart. */
  notebookKernels: 'computeToolkit.notebooks.kernels',
  /** workspaceState: the machine terminals open in this window (profile id, device id; no secrets): reopened after a restart. */
  machineTerminals: 'computeToolkit.machines.terminals',
  /** Which notebook ran on which machine's Jupyter server and kernel (no secrets): reconnect after a restart. */
  machineKernels: 'computeToolkit.notebooks.machineKernels',
} as const;
