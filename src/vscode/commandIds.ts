// Every `computeToolkit.*` identifier this layer uses: command ids, view ids, context keys and the keys
// of stored state. The manifest's contributes.commands holds the same command ids (a unit test checks
// both directions). A lint rule allows the `computeToolkit.` literal only in this file.

export const Commands = {
  profileCreate: 'computeToolkit.profile.create',
  profileEdit: 'computeToolkit.profile.edit',
  profileDelete: 'computeToolkit.profile.delete',
  profileSwitch: 'computeToolkit.profile.switch',
  profileConnectSandbox: 'computeToolkit.profile.connectSandbox',
  secretsSetToken: 'computeToolkit.secrets.setToken',
  secretsSetPrivateKey: 'computeToolkit.secrets.setPrivateKey',
  secretsImportPrivateKey: 'computeToolkit.secrets.importPrivateKey',
  secretsSetPlatformPublicKey: 'computeToolkit.secrets.setPlatformPublicKey',
  secretsSetModelApiKey: 'computeToolkit.secrets.setModelApiKey',
  secretsClear: 'computeToolkit.secrets.clear',
  keysGenerate: 'computeToolkit.keys.generate',
  keysShowFingerprints: 'computeToolkit.keys.showFingerprints',
  resourcesRefresh: 'computeToolkit.resources.refresh',
  resourcesSearch: 'computeToolkit.resources.search',
  resourcesFilter: 'computeToolkit.resources.filter',
  resourcesCreateTaskHere: 'computeToolkit.resources.createTaskHere',
  resourcesShowJson: 'computeToolkit.resources.showJson',
  tasksRefresh: 'computeToolkit.tasks.refresh',
  tasksCreate: 'computeToolkit.tasks.create',
  tasksDetail: 'computeToolkit.tasks.detail',
  tasksRevealEnv: 'computeToolkit.tasks.revealEnv',
  tasksPause: 'computeToolkit.tasks.pause',
  tasksRecover: 'computeToolkit.tasks.recover',
  tasksChangePoints: 'computeToolkit.tasks.changePoints',
  tasksStop: 'computeToolkit.tasks.stop',
  tasksCopyId: 'computeToolkit.tasks.copyId',
  tasksOpenServiceUrl: 'computeToolkit.tasks.openServiceUrl',
  tasksFilter: 'computeToolkit.tasks.filter',
  tasksClearFilter: 'computeToolkit.tasks.clearFilter',
  tasksLoadMoreEnded: 'computeToolkit.tasks.loadMoreEnded',
  nodesShowLog: 'computeToolkit.nodes.showLog',
  storageRefresh: 'computeToolkit.storage.refresh',
  storageCheck: 'computeToolkit.storage.check',
  nasRefresh: 'computeToolkit.nas.refresh',
  nasCreate: 'computeToolkit.nas.create',
  nasExpand: 'computeToolkit.nas.expand',
  nasRename: 'computeToolkit.nas.rename',
  nasDelete: 'computeToolkit.nas.delete',
  nasOpenInExplorer: 'computeToolkit.nas.openInExplorer',
  nasUpload: 'computeToolkit.nas.upload',
  nasDownload: 'computeToolkit.nas.download',
  nasShowConnection: 'computeToolkit.nas.showConnectionDetails',
  nasCloseSession: 'computeToolkit.nas.closeSession',
  nasTransferCreate: 'computeToolkit.nas.transfer.create',
  nasTransferRetry: 'computeToolkit.nas.transfer.retry',
  nasTransferStop: 'computeToolkit.nas.transfer.stop',
  nasTransferDelete: 'computeToolkit.nas.transfer.delete',
  requestSend: 'computeToolkit.request.send',
  requestSign: 'computeToolkit.request.sign',
  requestMeasureClockSkew: 'computeToolkit.request.measureClockSkew',
  requestCompare: 'computeToolkit.request.compare',
  requestHistory: 'computeToolkit.request.history',
  requestReplay: 'computeToolkit.request.replay',
  requestCopyCurl: 'computeToolkit.request.copyCurl',
  showLogs: 'computeToolkit.showLogs',
  chatOpen: 'computeToolkit.chat.open',
  chatOpenInEditor: 'computeToolkit.chat.openInEditor',
  chatNew: 'computeToolkit.chat.new',
  chatAskAboutSelection: 'computeToolkit.chat.askAboutSelection',
  chatExplainSelection: 'computeToolkit.chat.explainSelection',
  chatFindBugsInSelection: 'computeToolkit.chat.findBugsInSelection',
  chatSearchConversations: 'computeToolkit.chat.searchConversations',
  spendShow: 'computeToolkit.spend.show',
  spendSetBudget: 'computeToolkit.spend.setBudget',
  tasksPauseAfter: 'computeToolkit.tasks.pauseAfter',
  tasksCancelPauseTimer: 'computeToolkit.tasks.cancelPauseTimer',
  tasksShowEvents: 'computeToolkit.tasks.showEvents',
  tasksExplainFailure: 'computeToolkit.tasks.explainFailure',
  nodesShowEvents: 'computeToolkit.nodes.showEvents',
  nodesDelete: 'computeToolkit.nodes.delete',
  tasksUpdate: 'computeToolkit.tasks.update',
  tasksSendUpdate: 'computeToolkit.tasks.sendUpdate',
  tasksAddNasMount: 'computeToolkit.tasks.addNasMount',
  jobsRefresh: 'computeToolkit.jobs.refresh',
  jobsCreate: 'computeToolkit.jobs.create',
  jobsRunOnGpu: 'computeToolkit.jobs.runOnGpu',
  jobsRunAgain: 'computeToolkit.jobs.runAgain',
  jobsShowLogs: 'computeToolkit.jobs.showLogs',
  jobsStop: 'computeToolkit.jobs.stop',
  jobsDetail: 'computeToolkit.jobs.detail',
  preheatRefresh: 'computeToolkit.preheat.refresh',
  preheatCreate: 'computeToolkit.preheat.create',
  preheatStop: 'computeToolkit.preheat.stop',
  preheatOffer: 'computeToolkit.preheat.offer',
  deploymentsDeployModel: 'computeToolkit.deployments.deployModel',
  deploymentsSetIdlePause: 'computeToolkit.deployments.setIdlePause',
  deploymentsSetKey: 'computeToolkit.deployments.setKey',
  specValidate: 'computeToolkit.spec.validate',
  specPlan: 'computeToolkit.spec.plan',
  specDeploy: 'computeToolkit.spec.deploy',
  specUpdate: 'computeToolkit.spec.update',
  specOpenLive: 'computeToolkit.spec.openLive',
  specStop: 'computeToolkit.spec.stop',
  specSaveFromTask: 'computeToolkit.spec.saveFromTask',
  specSaveFromJob: 'computeToolkit.spec.saveFromJob',
  specNewFromTemplate: 'computeToolkit.spec.newFromTemplate',
  specSetSecret: 'computeToolkit.spec.setSecret',
  notebooksPickTask: 'computeToolkit.notebooks.pickTask',
  notebooksRestartKernel: 'computeToolkit.notebooks.restartKernel',
  machineConnect: 'computeToolkit.machines.connect',
  machineOpenTerminal: 'computeToolkit.machines.openTerminal',
  machineOpenRemoteSsh: 'computeToolkit.machines.openInRemoteSsh',
  machineForwardPort: 'computeToolkit.machines.forwardPort',
  machineOpenFolder: 'computeToolkit.machines.openFolder',
  machinePortForwards: 'computeToolkit.machines.portForwards',
  machineGroupRun: 'computeToolkit.machines.runOnGroup',
  notebooksNewGpuKernel: 'computeToolkit.notebooks.newGpuKernel',
  notebooksOpenVolume: 'computeToolkit.notebooks.openVolume',
  machinesRefresh: 'computeToolkit.machines.refresh',
  machinesRent: 'computeToolkit.machines.rent',
  machinesFilter: 'computeToolkit.machines.filterCatalogue',
  machinesAutoRenew: 'computeToolkit.machines.autoRenew',
  notebooksShutDownMachineKernel: 'computeToolkit.notebooks.shutDownMachineKernel',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Tree views (contributes.views) and the chat webview panel type. */
export const Views = {
  resources: 'computeToolkit.resources',
  tasks: 'computeToolkit.tasks',
  storage: 'computeToolkit.storage',
  jobs: 'computeToolkit.jobs',
  nas: 'computeToolkit.nas',
  preheat: 'computeToolkit.preheat',
  machines: 'computeToolkit.machines',
  chatPanel: 'computeToolkit.chat',
  /** The chat as a webview view in the Compute side bar (same page and session as the panel). */
  chatView: 'computeToolkit.chatView',
  profileStatusBar: 'computeToolkit.profile',
  spendPanel: 'computeToolkit.spend',
  spendStatusBar: 'computeToolkit.spend.statusBar',
  deploymentsStatusBar: 'computeToolkit.deployments.statusBar',
  notebookStatusBar: 'computeToolkit.notebooks.statusBar',
  /** The notebook controller (kernel picker) for .ipynb. */
  notebookKernel: 'computeToolkit.kernel',
  /** The kernel picker's "New GPU Kernel…" entry (selecting it starts the flow). */
  notebookNewKernel: 'computeToolkit.kernel.new',
  /** The kernel picker's "Jupyter on a Machine…": a Jupyter server on a rented machine over SSH. */
  notebookMachineKernel: 'computeToolkit.kernel.machine',
} as const;

/** Providers of VS Code's AI surfaces (contributes.mcpServerDefinitionProviders). */
export const Providers = {
  mcpServers: 'computeToolkit.mcpServers',
} as const;

/** Context keys for `when` clauses in the manifest. */
export const ContextKeys = {
  hasProfile: 'computeToolkit.hasProfile',
  /** The active profile has the secrets its mode needs (the walkthrough's keys step completes on it). */
  hasCredentials: 'computeToolkit.hasCredentials',
  /** The Tasks view has a filter (shows Clear Tasks Filter). */
  tasksFiltered: 'computeToolkit.tasks.filtered',
} as const;

/** Keys of globalState / workspaceState entries: in core, so persistedState.ts reads them without this file. */
export { StateKeys } from '../core/stateKeys';

/** SecretStorage keys outside the profiles: `<prefix>/<name>` holds a spec secret a spec file references. */
export const SecretKeys = {
  specSecretPrefix: 'computeToolkit.specSecret',
  /** `<prefix>.<profile id>.<task id>` holds the Jupyter token of a task's server (notebooks). */
  jupyterTokenPrefix: 'computeToolkit.notebooks.token',
} as const;

/** Walkthroughs (contributes.walkthroughs), without the `publisher.name#` prefix. */
export const Walkthroughs = {
  gettingStarted: 'computeToolkit.gettingStarted',
} as const;
