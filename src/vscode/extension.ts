// The composition root: builds the services once, registers every contribution, and returns the API the
// in-host tests use. Activation stays light: nothing here loads the HTTP stack, crypto or markdown;
// those load on first use (see lazyCore.ts). Every disposable goes into context.subscriptions.
// What it returns is checked against the tests' declaration of it (api.ts) where the tests reach it
// (test/integration/extensionApi.ts): the root builds the areas and does not also sit above their list.

import { ContextKeys } from './commandIds';
import * as vscode from 'vscode';
import { Refusal } from './errors/refusal';
import { registerAi } from './ai/index';
import { registerChat } from './chat/index';
import { registerCommandTable } from './commands/commandTable';
import { PROFILE_COMMANDS } from './profiles/index';
import { REQUEST_COMMANDS } from './requests/index';
import { registerCompute } from './views/index';
import { describeError } from './errors/describeError';
import { registerSpend, spendNeedsWatching, type SpendApi } from './spend/index';
import { RemoteState } from './state/index';
import { registerTasks, type TasksAreaApi } from './tasks/index';
import { NotificationCenter, type ShownNotification } from './ui/notificationCenter';
import type { Refusal as ShownRefusal } from './ui/workspaceTrust';
import { shownReview } from './ui/review';
import { shownStepInput } from './ui/multiStepInput';
import { registerJobs } from './jobs/index';
import type { MachineRunPort } from './runs/machineRunPort';
import { createDeployedModels, registerDeployments } from './deployments/index';
import { registerSpecs, SpecSecrets } from './specs/index';
import { registerNas } from './nas/index';
import { registerPreheat } from './preheat/index';
import { registerMachines } from './machines/index';
import { registerNotebooks } from './notebooks/index';
import { registerMachineConnect } from './machines/connect/index';
import { openComputeWalkthrough, openWalkthroughOnFirstRun } from './firstRun';
import { Services } from './extensionServices';
import { activeClientOf } from './client/computeServices';
import { SANDBOX_URL_ENV, connectSandbox, needsSandboxConnect } from './profiles/connectSandbox';
import { KeyRotationReminder } from './profiles/keyRotation';
import { ProfileStatusBar } from './statusBar';
import { CredentialsContext } from './profiles/credentialsContext';
import { errorMessage } from '../shared/errorMessage';
import { errorText } from './errors/errorText';
import { TestPorts } from './testPorts';
import { AreaRegistry, fromArea, startOrTakeBack, type AreaFailure } from './areaRegistry';
import type { Activity } from '../core/spend/activity';
import type { ComputeClientOptions } from '../core/compute/api';
import { registerActivitySources, type ActivityPorts } from './spend/activitySources';
import type { RentedMachine } from '../core/machines';
import type { ComputePorts } from './views/ports';
import type { TaskAnnotation } from './tasks/taskRows';
import type { StartTookPort } from '../core/preheat/preheatFollow';

export const HAS_PROFILE_CONTEXT = ContextKeys.hasProfile;

/** Activation with a failure path: what it registered is taken back, the user told once, the error rethrown. */
export function activate(context: vscode.ExtensionContext): ActivatedApi {
  return startOrTakeBack(context.subscriptions, () => start(context), reportActivationFailure);
}

/** What activate() returns: the in-host tests' API (declared for them in api.ts). */
export type ActivatedApi = ReturnType<typeof start>;

function start(context: vscode.ExtensionContext) {
  const services = new Services(context);
  context.subscriptions.push(services);
  context.subscriptions.push(...registerCommandTable([...PROFILE_COMMANDS, ...REQUEST_COMMANDS], services, services.reportError));

  const statusBar = new ProfileStatusBar(services.profiles);
  const credentials = new CredentialsContext(services.profiles);
  context.subscriptions.push(credentials);
  const reminder = new KeyRotationReminder(services.profiles, services.config);
  context.subscriptions.push(
    statusBar,
    services.profiles.onDidChangeActive((profile) => {
      void setHasProfile(profile !== undefined);
      void reminder.check(profile);
    }),
  );
  void setHasProfile(services.profiles.active !== undefined);

  // One store of remote state per watched profile; every area reads it (docs/areas.md, `state`).
  const state = new RemoteState(services, spendNeedsWatching(services));
  context.subscriptions.push(state);
  const center = new NotificationCenter((line) => services.logger.info(line));
  // Each area registers through one registry (areaRegistry.ts): one that fails is taken back whole, the
  // others still come up, and the user is told once (below). Ports go in by constructor, in this order.
  const areas = new AreaRegistry(context.subscriptions, (line) => services.logger.error(line));
  // The Tasks view draws the pause timers' time left on its rows; the timers (spend) pause through the view,
  // so the view comes first and its port reads spend as a row is drawn (after activation: no row is drawn before).
  const computePorts: ComputePorts = { taskAnnotation: (taskId) => fromArea<TaskAnnotation | undefined>(() => spend.taskAnnotation(taskId), undefined) };
  const compute = areas.add(vscode.l10n.t('Compute views'), (own) => registerCompute(services, state, computePorts, own));
  // The Spend page lists the rented machines' ends through the machines area (registered below, read on use).
  const spend = areas.add(vscode.l10n.t('Spend'), (own) => registerSpend(services, compute, state, center, () => fromArea(() => machines.spendRentals(), Promise.resolve({ rentals: [], rentalsNote: '' })), own));
  // A user's deployments as models: the chat and VS Code's model picker list and route them.
  const deployedModels = areas.add(vscode.l10n.t('Deployed models'), (own) => createDeployedModels(services, spend.priceOfTask, own));
  const chat = areas.add(vscode.l10n.t('Compute Chat'), (own) => registerChat(services, deployedModels, own));
  const tasks = areas.add(vscode.l10n.t('Tasks'), (own) => registerTasks(services, compute, chat, state, center, own));
  // The NAS area comes before the areas that consume it (agent tools, Run on GPU).
  const tests = new TestPorts();
  const nas = areas.add(vscode.l10n.t('NAS volumes'), (own) => registerNas(services, state, own));
  // The NAS agent tools reach volume files through the NAS area's sessions.
  const ai = areas.add(vscode.l10n.t('Agent tools and models'), (own) => registerAi(services, {
    client: activeClientOf(services),
    nasFiles: (roots) => nas.toolAccess(roots),
    // Only the user's stored spec secrets resolve for the tools, never environment variables.
    storedSpecSecret: (name) => new SpecSecrets(services.context.secrets, () => new Set()).resolve({ secret: name }),
    // The spec tools check a file on the spec files area's worker (registered below), never on this thread.
    checkSpecText: (text, format) => fromArea(() => specs.documents.checkText(text, format), undefined),
    deployedModels,
  }, own));
  const specs = areas.add(vscode.l10n.t('Spec files'), (own) => registerSpecs(services, state, activeClientOf(services), own));
  // Run on GPU sends the folder to a NAS volume and opens its outputs from there.
  // Run on GPU takes a rented machine as its target through the machine connections area (registered below).
  const jobs = areas.add(vscode.l10n.t('Jobs'), (own) => registerJobs(services, state, center, tests.port('nasRunHooks', nas.runHooks), () => fromArea<MachineRunPort | undefined>(() => machineConnect.machineRun, undefined), own));
  // The one activity rule for pausing holds a deployment's idle pause while something works on it.
  const activityOf = (taskId: number): readonly Activity[] => (services.profiles.active ? spend.activity.of(services.profiles.active.id, taskId) : []);
  // A slow start (Deploy a Model…, New GPU Kernel…) says how long it took and offers Preheat (the preheat area, below).
  const startTook: StartTookPort = (start) => fromArea(() => preheat.offers.startTook(start), undefined);
  const deployments = areas.add(vscode.l10n.t('Deployments'), (own) => registerDeployments(services, state, deployedModels, { tasks: compute, chat, activityOf, startTook }, center, own));
  const preheat = areas.add(vscode.l10n.t('Image preheat'), (own) => registerPreheat(services, state, center, own));
  const machines = areas.add(vscode.l10n.t('Machines'), (own) => registerMachines(services, state, center, own));
  // Jupyter on a Machine… reaches rented machines through the machine connections area (registered below).
  const notebookTasks = { refreshTasks: spend.refreshTasks, priceOfTask: spend.priceOfTask, activity: spend.activity };
  const notebooks = areas.add(vscode.l10n.t('Notebook kernel'), (own) => registerNotebooks(services, notebookTasks, tests.port('nasRunHooks', nas.runHooks), center, startTook, () => fromArea<MachineRunPort | undefined>(() => machineConnect.machineRun, undefined), own));
  // Connect… picks among the rented machines as the one store holds them (polled now).
  const rentedMachines = async (fresh = true): Promise<readonly RentedMachine[]> => {
    if (fresh) await state.refresh();
    return machines.machines();
  };
  const machineConnect = areas.add(vscode.l10n.t('Machine connections'), (own) => registerMachineConnect(services, tests, rentedMachines, center, own));
  // The one activity rule's other sources: a model answering, machine terminals and forwards, Run on GPU (docs/money.md).
  const activityPorts: ActivityPorts = {
    profileId: () => services.profiles.active?.id,
    answering: () => deployedModels.answering.keys(),
    taskName: (taskId) => deployedModels.get(taskId)?.taskName,
    machineTerminals: () => machineConnect.terminals(),
    machineForwards: () => machineConnect.forwards(),
    runningRuns: () => jobs.runningRuns(),
  };
  areas.add(vscode.l10n.t('Activity for pausing'), (own) => registerActivitySources(spend.activity, activityPorts, own));
  // The tests' view of spend and task care: it fails with either area (it reads both).
  const money = areas.add(vscode.l10n.t('Spend'), (own) => ({ api: moneyApi(spend, tasks, center, state), disposables: own }));
  reportAreaFailures(services, areas.failures);

  // The in-host tests drive the first run themselves (test/integration/surface/firstRun.test.ts).
  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    void openWalkthroughOnFirstRun({
      state: services.state,
      hasProfile: () => services.profiles.all.length > 0,
      openWalkthrough: () => openComputeWalkthrough(context.extension.id),
    }).catch((error: unknown) => services.logger.warn(`Could not open the walkthrough: ${error instanceof Error ? error.message : String(error)}`));
  }

  const ready = startUp(services).then(() => {
    void reminder.check(services.profiles.active); // not awaited: it waits for the user to dismiss it
  });

  return {
    services,
    compute,
    chat,
    money,
    ai,
    jobs,
    deployments,
    specs,
    nas,
    preheat,
    machines,
    notebooks,
    machineConnect,
    tests,
    ready,
    surface: {
      profiles: services.profiles,
      connectSandbox: async (url: string) => {
        const profiles = await connectSandbox(services.profiles, url);
        await services.refreshRedactor();
        return profiles;
      },
      logText: () => services.logTail.text(),
      statusBarText: () => statusBar.text,
      statusBarAccessibleName: () => statusBar.accessibleName,
      hasCredentials: async () => {
        await credentials.settled;
        return credentials.value;
      },
      describeError,
      createComputeClient: (overrides: Partial<Omit<ComputeClientOptions, 'baseUrl' | 'credentials'>>) => {
        const profile = services.profiles.active;
        if (!profile) throw new Refusal(vscode.l10n.t('No active profile'));
        return services.clients.create(profile, overrides);
      },
      documentText: (key: string, title: string) => services.documents.textOf({ key, title }),
      stepInput: shownStepInput,
      review: shownReview,
      refusals: () => services.refusals.shown,
      chooseRefusal: (refusal: ShownRefusal, action: string) => services.refusals.choose(refusal, action),
      reportTrustForTests: (trusted: boolean | undefined) => services.trust.reportTrustForTests(trusted),
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/**
 * Work that must not delay activation: prime the log Redactor with the stored secrets, and connect
 * quietly to the sandbox `npm start` or the test runner started (named in the environment).
 * Failures are logged, never shown: the user did not ask for this.
 */
async function startUp(services: Services): Promise<void> {
  await services.refreshRedactor();
  const sandboxUrl = process.env[SANDBOX_URL_ENV];
  if (!sandboxUrl || !needsSandboxConnect(services.profiles, sandboxUrl)) return;
  try {
    const profiles = await connectSandbox(services.profiles, sandboxUrl);
    await services.refreshRedactor();
    services.logger.info(`Connected to the sandbox at ${profiles.rsa.computeBaseUrl} (from ${SANDBOX_URL_ENV})`);
  } catch (error) {
    services.logger.warn(
      `Could not connect to the sandbox named in ${SANDBOX_URL_ENV} (${sandboxUrl}): ${errorMessage(error)}`,
    );
  }
}

/** Notifications, spend, budgets, timers and the tasks area's care flows, for the in-host tests (api.ts). */
function moneyApi(spend: SpendApi, tasks: TasksAreaApi, center: NotificationCenter, state: RemoteState) {
  return {
    ...spend,
    updates: tasks.updates,
    explainFailure: tasks.explainFailure,
    deleteNode: tasks.deleteNode,
    notifications: () => center.shown,
    notificationCount: () => center.count,
    notificationsSince: (mark: number) => center.since(mark),
    choose: (notification: ShownNotification, action: string) => center.choose(notification, action),
    watching: () => tasks.notifier.active,
    // The tests' hook polls now (as Refresh does); the product's wakes keep the 10 s floor.
    wakeWatcher: () => state.refresh(),
    runPlannedPoll: () => state.runPlannedPoll(),
    stateListings: (profileId?: string) => state.listings(profileId),
    watchedProfiles: () => state.watched.map((watch) => watch.profile.label),
  };
}

/** One error for every area that did not start, with Show Logs (each failure is in the log with its stack). */
function reportAreaFailures(services: Services, failures: readonly AreaFailure[]): void {
  if (failures.length === 0) return;
  const names = [...new Set(failures.map((failure) => failure.area))].join(', ');
  services.reportError(
    new Refusal(vscode.l10n.t('Compute Toolkit started without: {0}. The rest works; the log says why.', names), [{ kind: 'showLogs' }]),
    vscode.l10n.t('Start Compute Toolkit'),
  );
}

/** Activation failed before the areas (services, the profile commands): no logger yet, so the host's log and one error. */
function reportActivationFailure(error: unknown): void {
  console.error('Compute Toolkit could not start:', error);
  // eslint-disable-next-line no-restricted-syntax -- reportError lives on the services, which are what failed
  void vscode.window.showErrorMessage(vscode.l10n.t('Compute Toolkit could not start: {0}', errorText(error)));
}

function setHasProfile(value: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', HAS_PROFILE_CONTEXT, value);
}
