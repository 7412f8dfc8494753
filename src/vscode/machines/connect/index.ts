// Connecting to rented machines (docs/machines.md): *Connect…* (host key confirmed and pinned, a key
// installed with the platform's password once, password logins then turned off), *Open Terminal* (a pty
// over SSH that reconnects by itself) and *Open in Remote-SSH* (our Host entry, then the installed
// Remote-SSH extension). Commands take a Machines view row or a device id, or ask for a Serving machine.

import * as vscode from 'vscode';
import type { RentedMachine } from '../../../core/machines';
import { Commands } from '../../commandIds';
import { registerCommandTable, type CommandEntry } from '../../commands/commandTable';
import type { ExtensionServices } from '../../services';
import type { TestPorts } from '../../testPorts';
import type { RegisteredArea } from '../../areaRegistry';
import { timeLeftMs } from '../../../core/machines/machineState';
import { machinesCore } from '../../../core/lazyModules';
import type { MachineRunPort } from '../../runs/machineRunPort';
import { rentalPriceText, timeLeftText } from '../machineText';
import { HOME_SSH, MachineConnector, machineLabel, type MachineSshPlaces, type MachineTarget } from './machineConnector';
import { openMachineTerminal, type MachineTerminalRecord } from './machineTerminal';
import { MachineFiles, machineFolderUri } from './machineFiles';
import { PortForwards } from './portForwards';
import { GroupRunner } from './groupRunCommand';
import { installedRemoteSsh, remoteSshUri, writeHostEntry } from './remoteSsh';
import { MachineTerminalMemory, type TerminalRestorePorts, type TerminalRestoreResult } from './terminalRestore';
import { errorText } from '../../errors/errorText';
import { Refusal } from '../../errors/refusal';
import type { NotificationCenter } from '../../ui/notificationCenter';

export interface MachineConnectApi {
  /** *Connect…* as the command runs it (questions answered through the step inputs); true when connected. */
  connect(arg?: unknown): Promise<boolean>;
  /** *Open Terminal*; resolves its record once the terminal is created. */
  openTerminal(arg?: unknown): Promise<MachineTerminalRecord | undefined>;
  /** The machine terminals open now. */
  terminals(): readonly MachineTerminalRecord[];
  /** *Open in Remote-SSH*: what it wrote and opened (`opened` false: no Remote-SSH installed). */
  openInRemoteSsh(arg?: unknown): Promise<{ alias: string; uri: string; config: string; opened: boolean } | undefined>;
  /** *Forward Port…* with the port given (asked when left out); the forward's local port. */
  forwardPort(arg: unknown, remotePort?: number): Promise<{ localPort: number; close(): void } | undefined>;
  /** The forwards open now, and the machine's public addresses as shown. */
  forwards(): readonly { deviceId: number; remotePort: number; localPort: number; profileId: string | undefined; close(): void }[];
  publicAddresses(arg: unknown): Promise<string[]>;
  /** The machine's home as a `computemachine:` folder URI; `add` puts it in the workspace as the command does. */
  openFolder(arg: unknown, add: boolean): Promise<string | undefined>;
  /** What Run on GPU takes to run on a rented machine (jobs/runOnMachine.ts). */
  machineRun: MachineRunPort;
  /** The lines of the group runs' terminals (Run on Machine Group…). */
  groupRunTexts(): string[][];
  /** What an activation does with the machine terminals stored as open (reopens them, or says why not). */
  restoreTerminals(): Promise<TerminalRestoreResult | undefined>;
  /** The in-host stand-in for a restart: the open machine terminals closed as a window's close does, then restored. */
  restartTerminals(): Promise<TerminalRestoreResult | undefined>;
}

/** A home folder path from the machine, kept only when it is a plain absolute path. */
function homeOf(text: string): string {
  const home = text.trim();
  return /^\/[^\0\r\n]{0,1023}$/.test(home) && !home.split('/').includes('..') ? home : '/';
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerMachineConnect(
  services: ExtensionServices,
  tests: TestPorts,
  rentedMachines: (fresh?: boolean) => Promise<readonly RentedMachine[]>,
  center: NotificationCenter,
  own: vscode.Disposable[] = [],
): RegisteredArea<MachineConnectApi> {
  const places = tests.port<MachineSshPlaces>('machineSsh', HOME_SSH);
  const connector = new MachineConnector(services, places, rentedMachines);
  const records: MachineTerminalRecord[] = [];
  const forwards = new PortForwards(connector, center, (error, context) => services.reportError(error, context));
  own.push(forwards);
  const files = new MachineFiles(connector, services.logger);
  own.push(files);

  async function connect(arg?: unknown): Promise<MachineTarget | undefined> {
    const target = await connector.target(arg);
    if (!target) return undefined;
    const connected = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Connecting to {0}…', target.label), cancellable: false }, () => connector.connectInteractive(target));
    if (!connected) return undefined;
    connected.connection.close();
    if (connected.installedKey && connected.passwordOff === false) {
      void vscode.window.showWarningMessage(vscode.l10n.t('A key is installed on {0}, but its SSH server could not be told to refuse passwords (it reads no sshd_config.d drop-ins, or sudo asks for a password). Compute Toolkit logs in by key only; turn PasswordAuthentication off on the machine yourself.', target.label));
    }
    const next = [vscode.l10n.t('Open Terminal'), vscode.l10n.t('Open in Remote-SSH'), vscode.l10n.t('Open Folder')];
    void vscode.window.showInformationMessage(vscode.l10n.t('Connected to {0} by key (host key {1}).', target.label, connected.hostKey.fingerprint), ...next).then((choice) => {
      const command = [Commands.machineOpenTerminal, Commands.machineOpenRemoteSsh, Commands.machineOpenFolder][choice === undefined ? -1 : next.indexOf(choice)];
      return command ? vscode.commands.executeCommand(command, target.deviceId) : undefined;
    });
    return target;
  }

  /** The target, connected once interactively when it has no key yet. */
  async function ready(arg: unknown): Promise<MachineTarget | undefined> {
    const target = await connector.target(arg);
    if (!target) return undefined;
    const store = connector.store();
    if ((await store.machineKey(target.deviceId)) && (await store.hostKey(target.deviceId))) return target;
    return connect(target.deviceId);
  }

  const memory = new MachineTerminalMemory(services.context.workspaceState);
  own.push(memory);
  /** A terminal on a machine that has its key, stored as open for the next session (terminalRestore.ts). */
  function terminalOn(target: MachineTarget): vscode.Terminal {
    // The machine's profile: its keys, pins and login stay the terminal's after a switch of the active one.
    const profile = services.profiles.active;
    if (!profile) throw new Refusal(vscode.l10n.t('No active profile'));
    const profileId = profile.id;
    const terminal = openMachineTerminal(target.deviceId, target.label, profileId, async (signal) => (await connector.connectKeyOnly(target.deviceId, signal, profile)).connection, (record) => {
      records.push(record);
      return () => records.splice(records.indexOf(record) >>> 0, 1);
    });
    memory.remember(terminal, { profileId, deviceId: target.deviceId });
    return terminal;
  }

  async function openTerminal(arg?: unknown): Promise<MachineTerminalRecord | undefined> {
    const target = await ready(arg);
    if (!target) return undefined;
    const terminal = terminalOn(target);
    terminal.show();
    return records.find((record) => record.terminal === terminal);
  }

  const restorePorts: TerminalRestorePorts = {
    profileId: () => services.profiles.active?.id,
    serving: async () => new Set((await rentedMachines(true)).filter((machine) => machine.status === 'Serving').map((machine) => machine.deviceId)),
    hasKey: async (deviceId) => {
      const store = connector.store();
      return (await store.machineKey(deviceId)) !== undefined && (await store.hostKey(deviceId)) !== undefined;
    },
    open: (deviceId) => void terminalOn({ deviceId, label: vscode.l10n.t('Machine {0}', deviceId) }),
    explain: (message) => void services.refusals.show(message, []),
  };
  /** Reopens the active profile's terminals stored as open; a failed look keeps them stored and says so. */
  const restoreTerminals = (): Promise<TerminalRestoreResult | undefined> =>
    memory.restore(restorePorts).catch((error: unknown) => {
      services.refusals.show(vscode.l10n.t('The machine terminals open before the restart were not reopened: {0}', errorText(error)), []);
      return undefined;
    });

  async function openInRemoteSsh(arg?: unknown): Promise<{ alias: string; uri: string; config: string; opened: boolean } | undefined> {
    const target = await ready(arg);
    if (!target) return undefined;
    const store = connector.store();
    const { connection, hostKey } = await connector.connectKeyOnly(target.deviceId);
    let home: string;
    try {
      home = homeOf((await connection.exec('printf %s "$HOME"')).stdout);
    } finally {
      connection.close();
    }
    const login = await connector.service().login(target.deviceId);
    const ownFile = await store.ownKeyFile(target.deviceId);
    const key = await store.machineKey(target.deviceId);
    if (!key) return undefined;
    // An agent key: ssh is pointed at its public line and signs through the agent (IdentitiesOnly keeps it to that key).
    const agentKey = key.agent ? await machinesCore().agentPublicKey(target.deviceId, key) : undefined;
    const identity = ownFile !== undefined ? { file: ownFile } : agentKey ? { agentPublicKey: agentKey.publicKey } : { privateKey: key.privateKey };
    const { alias, config } = await writeHostEntry(services.context.secrets, services.context.globalStorageUri, places, { deviceId: target.deviceId, profileId: store.profileId, configFileSetting: services.config.remoteSshConfigFile, login, hostKey, key: identity });
    const uri = remoteSshUri(alias, home);
    const extension = installedRemoteSsh();
    if (!extension) {
      services.refusals.show(vscode.l10n.t('Remote-SSH is not installed, so {0} cannot open as a remote window. Its Host entry "{1}" is written ({2}): `ssh {1}` works from a terminal. You can also open a terminal on the machine here.', target.label, alias, config), [
        { title: vscode.l10n.t('Open Terminal'), run: () => openTerminal(target.deviceId) },
        { title: vscode.l10n.t('Show Remote-SSH'), run: () => vscode.commands.executeCommand('workbench.extensions.search', REMOTE_SSH_SEARCH) },
      ]);
      return { alias, uri: uri.toString(), config, opened: false };
    }
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Opening {0} in Remote-SSH as "{1}". If the machine cannot download the VS Code Server (often the case from mainland China), set remote.SSH.localServerDownload to "always": the server is then downloaded here and copied over.', target.label, alias), vscode.l10n.t('Open Setting'))
      .then((choice) => (choice ? vscode.commands.executeCommand('workbench.action.openSettings', 'remote.SSH.localServerDownload') : undefined));
    await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
    return { alias, uri: uri.toString(), config, opened: true };
  }

  const entries: CommandEntry<void>[] = [
    { id: Commands.machineConnect, doing: vscode.l10n.t('Connect to the machine'), create: () => async (arg?: unknown) => void (await connect(arg)) },
    { id: Commands.machineOpenTerminal, doing: vscode.l10n.t('Open a terminal on the machine'), create: () => async (arg?: unknown) => void (await openTerminal(arg)) },
    { id: Commands.machineOpenRemoteSsh, doing: vscode.l10n.t('Open the machine in Remote-SSH'), create: () => async (arg?: unknown) => void (await openInRemoteSsh(arg)) },
    { id: Commands.machineOpenFolder, doing: vscode.l10n.t('Open the machine\'s folder'), create: () => async (arg?: unknown) => void (await openFolder(arg, true)) },
    { id: Commands.machineForwardPort, doing: vscode.l10n.t('Forward a port of the machine'), create: () => async (arg?: unknown) => void (await forwardPort(arg)) },
    { id: Commands.machinePortForwards, doing: vscode.l10n.t('Show the port forwards'), create: () => () => forwards.showList() },
  ];

  async function openFolder(arg: unknown, add: boolean): Promise<string | undefined> {
    const target = await ready(arg);
    if (!target) return undefined;
    if (add) return (await files.open(target)).toString();
    return machineFolderUri(target.deviceId, await files.home(target.deviceId)).toString();
  }

  async function forwardPort(arg: unknown, remotePort?: number): Promise<{ localPort: number; close(): void } | undefined> {
    const target = await ready(arg);
    return target ? forwards.forward(target, remotePort) : undefined;
  }
  const machineRun: MachineRunPort = {
    serving: async (fresh) =>
      (await rentedMachines(fresh))
        .filter((machine) => machine.status === 'Serving')
        .map((machine) => ({
          deviceId: machine.deviceId,
          label: machineLabel(machine),
          timeLeft: () => {
            const left = timeLeftMs(machine, Date.now());
            return left === undefined ? undefined : timeLeftText(left);
          },
          price: rentalPriceText(machine),
        })),
    ready: async (deviceId) => (await ready(deviceId)) !== undefined,
    connect: async (deviceId, signal) => (await connector.connectKeyOnly(deviceId, signal)).connection,
    sessions: () => files.syncSessions(),
  };
  const groupRunner = new GroupRunner(services, machineRun, rentedMachines);
  own.push(groupRunner);
  entries.push({ id: Commands.machineGroupRun, doing: vscode.l10n.t('Run on the machine group'), create: () => (arg?: unknown) => groupRunner.run(arg) });
  void restoreTerminals();
  own.push(...registerCommandTable(entries, undefined, services.reportError));
  // The terminals of a profile come back when it is active: now (an editor restart) and on a switch to it.
  own.push(services.profiles.onDidChangeActive(() => void restoreTerminals()));
  return {
    api: {
      machineRun,
      groupRunTexts: () => [...groupRunner.terminals].map((terminal) => [...terminal.transcript]),
      restoreTerminals,
      restartTerminals: async () => {
        await memory.closeForRestart();
        return restoreTerminals();
      },
      connect: async (arg) => (await connect(arg)) !== undefined,
      openTerminal,
      terminals: () => records,
      openInRemoteSsh,
      forwardPort,
      openFolder,
      forwards: () => forwards.forwards.map((forward) => ({ deviceId: forward.deviceId, remotePort: forward.remotePort, localPort: forward.localPort, profileId: forwards.profileOf(forward), close: () => forward.close() })),
      publicAddresses: async (arg) => {
        const target = await connector.target(arg);
        return target ? forwards.publicAddresses(target.deviceId) : [];
      },
    },
    disposables: own,
  };
}

const REMOTE_SSH_SEARCH = '@id:ms-vscode-remote.remote-ssh';
