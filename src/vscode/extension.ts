// The composition root: builds the services once, registers every contribution, and returns the API the
// in-host tests use. Activation stays light: nothing here loads the HTTP stack, crypto or markdown;
// those load on first use (see lazyCore.ts). Every disposable goes into context.subscriptions.

import { ContextKeys } from './commandIds';
import * as vscode from 'vscode';
import { Refusal } from './errors/refusal';
import type { ExtensionApi, MoneyApi } from './api';
import { registerAi } from './ai/index';
import { registerChat } from './chat/index';
import { registerCommandTable } from './commands/commandTable';
import { PROFILE_COMMANDS } from './profiles/index';
import { REQUEST_COMMANDS } from './requests/index';
import { registerCompute } from './views/index';
import { describeError } from './errors/describeError';
import { registerSpend, spendNeedsWatching } from './spend/index';
import { RemoteState } from './state/index';
import { registerTasks } from './tasks/index';
import { NotificationCenter } from './ui/notificationCenter';
import { shownReview } from './ui/review';
import { shownStepInput } from './ui/multiStepInput';
import { registerJobs } from './jobs/index';
import { registerDeployments } from './deployments/index';
import { registerSpecs } from './specs/index';
import { registerNas } from './nas/index';
import { registerPreheat } from './preheat/index';
import { registerMachines } from './machines/index';
import { registerNotebooks } from './notebooks/index';
import { openComputeWalkthrough, openWalkthroughOnFirstRun } from './firstRun';
import { Services } from './extensionServices';
import { SANDBOX_URL_ENV, connectSandbox, needsSandboxConnect } from './profiles/connectSandbox';
import { KeyRotationReminder } from './profiles/keyRotation';
import { ProfileStatusBar } from './statusBar';
import { CredentialsContext } from './profiles/credentialsContext';
import { errorMessage } from '../shared/errorMessage';
import { TestPorts } from './testPorts';

export const HAS_PROFILE_CONTEXT = ContextKeys.hasProfile;

export function activate(context: vscode.ExtensionContext): ExtensionApi {
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
  const compute = registerCompute(services, state);
  const chat = registerChat(services);
  const tasks = registerTasks(services, compute, chat, state, center);
  const spend = registerSpend(services, compute, state, center);
  const money: MoneyApi = {
    ...spend,
    updates: tasks.updates,
    explainFailure: tasks.explainFailure,
    deleteNode: tasks.deleteNode,
    notifications: () => center.shown,
    choose: (notification, action) => center.choose(notification, action),
    watching: () => tasks.notifier.active,
    // The tests' hook polls now (as Refresh does); the product's wakes keep the 10 s floor.
    wakeWatcher: () => state.refresh(),
    runPlannedPoll: () => state.runPlannedPoll(),
    stateListings: (profileId) => state.listings(profileId),
    watchedProfiles: () => state.watched.map((watch) => watch.profile.label),
  };
  // Ports by constructor: the NAS area comes first, the areas that consume it are given it.
  const tests = new TestPorts();
  const nas = registerNas(services, state);
  context.subscriptions.push(...nas.disposables);
  // The NAS agent tools reach volume files through the NAS area's sessions.
  const ai = registerAi(services, { nasFiles: (roots) => nas.api.toolAccess(roots) });
  const specs = registerSpecs(services, state);
  context.subscriptions.push(...ai.disposables);
  // Run on GPU sends the folder to a NAS volume and opens its outputs from there.
  const jobs = registerJobs(services, state, center, tests.port('nasRunHooks', nas.api.runHooks));
  context.subscriptions.push(...jobs.disposables);
  const deployments = registerDeployments(services, compute, chat, money, ai.api.chatModels, state);
  const preheat = registerPreheat(services, state, center);
  context.subscriptions.push(...preheat.disposables);
  const machines = registerMachines(services, state, center);
  context.subscriptions.push(...machines.disposables);
  const notebooks = registerNotebooks(services, money);
  context.subscriptions.push(...notebooks.disposables);

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
    ai: ai.api,
    jobs: jobs.api,
    deployments,
    specs,
    nas: nas.api,
    preheat: preheat.api,
    machines: machines.api,
    notebooks: notebooks.api,
    tests,
    ready,
    surface: {
      profiles: services.profiles,
      connectSandbox: async (url) => {
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
      createComputeClient: (overrides) => {
        const profile = services.profiles.active;
        if (!profile) throw new Refusal(vscode.l10n.t('No active profile'));
        return services.clients.create(profile, overrides);
      },
      documentText: (key, title) => services.documents.textOf({ key, title }),
      stepInput: shownStepInput,
      review: shownReview,
      refusals: () => services.refusals.shown,
      chooseRefusal: (refusal, action) => services.refusals.choose(refusal, action),
      reportTrustForTests: (trusted) => services.trust.reportTrustForTests(trusted),
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

function setHasProfile(value: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', HAS_PROFILE_CONTEXT, value);
}
