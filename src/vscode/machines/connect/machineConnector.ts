// Connecting to a rented machine from the editor (docs/machines.md): the machine picked (a Serving one),
// its host key shown and confirmed on the first connect — before the platform's password is sent — the
// key to install chosen (the user's own, or one generated and kept in SecretStorage), then key-only
// connects for the terminal and the rest. A reconnect never asks anything.

import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KeyChoice, MachineConnection, RentedMachine } from '../../../core/machines';
import type { MachineService } from '../../../core/machines/machineService';
import { machinesCore } from '../../../core/lazyModules';
import { Refusal } from '../../errors/refusal';
import { machineServiceFor, machineServiceOf } from '../../client/computeServices';
import type { ExtensionServices, Profile } from '../../services';
import { MultiStepInput } from '../../ui/multiStepInput';
import { ConfigError, coreText } from '../../../core/errors';
import { shownValue } from '../../../core/shownValue';
import { agentSocket } from '../../../core/ssh/agentSocket';
import { SecretMachineKeyStore } from './machineKeyStore';

/** What the editor knows of a machine it connects to (a Machines view row, or the id alone). */
export interface MachineTarget {
  deviceId: number;
  label: string;
}

/** Where the user's ssh folder is (the tests hand in a folder of their own). */
export interface MachineSshPlaces {
  sshDir(): string;
}

export const HOME_SSH: MachineSshPlaces = { sshDir: () => path.join(homedir(), '.ssh') };

/** A machine row or id handed to a command: its device id, or undefined. */
export function deviceIdOf(arg: unknown): number | undefined {
  if (typeof arg === 'number' && Number.isSafeInteger(arg) && arg > 0) return arg;
  if (typeof arg === 'string' && /^\d{1,15}$/.test(arg)) return Number(arg);
  if (typeof arg === 'object' && arg !== null) {
    const record = arg as Record<string, unknown>;
    for (const field of ['deviceId', 'device_id']) if (record[field] !== undefined) return deviceIdOf(record[field]);
    // A Machines view row holds its machine as `item` (kinds/kindTree.ts).
    for (const nested of ['machine', 'item']) if (typeof record[nested] === 'object') return deviceIdOf(record[nested]);
  }
  return undefined;
}

export function machineLabel(machine: Pick<RentedMachine, 'deviceId' | 'gpuModel' | 'gpuCount'>): string {
  return vscode.l10n.t('Machine {0} ({1} × {2})', machine.deviceId, machine.gpuCount, machine.gpuModel.replace(/[^\x20-\x7e\u4e00-\u9fff]/g, '').slice(0, 60));
}

export class MachineConnector {
  constructor(
    private readonly services: ExtensionServices,
    private readonly places: MachineSshPlaces,
    /** The active profile's rented machines as the one store holds them, fresh (the Machines area's port). */
    private readonly rentedMachines: () => Promise<readonly RentedMachine[]>,
  ) {}

  /** The platform's machine routes, of `profile` (a terminal's own) or else the active profile. */
  service(profile?: Profile): MachineService {
    return profile ? machineServiceFor(this.services, profile) : machineServiceOf(this.services);
  }

  /** The key store of `profile` (the one a terminal was opened under) or else the active profile's. */
  store(profile?: Profile): SecretMachineKeyStore {
    const owner = profile ?? this.services.profiles.active;
    if (!owner) throw new Refusal(vscode.l10n.t('No active profile'));
    return new SecretMachineKeyStore(this.services.context.secrets, owner.id);
  }

  /** The machine a command acts on: the one handed in, else a pick of the Serving machines. */
  async target(arg: unknown): Promise<MachineTarget | undefined> {
    const given = deviceIdOf(arg);
    if (given !== undefined) return { deviceId: given, label: vscode.l10n.t('Machine {0}', given) };
    const serving = (await this.rentedMachines()).filter((machine) => machine.status === 'Serving');
    if (serving.length === 0) throw new Refusal(vscode.l10n.t('No rented machine is Serving yet. A machine can be connected to once it is Serving (Proxy and Direct machines take about 30 minutes).'), [], 'warning');
    const items = serving.map((machine) => ({ label: machineLabel(machine), description: machine.publicIp.replace(/[^0-9a-fA-F.:]/g, '').slice(0, 45), machine }));
    let picked: (typeof items)[number] | undefined;
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({ title: vscode.l10n.t('Connect to Machine'), items, placeholder: vscode.l10n.t('A Serving machine') });
    });
    return finished && picked ? { deviceId: picked.machine.deviceId, label: picked.label } : undefined;
  }

  /**
   * Connects as *Connect…* does: the first time, the host key is confirmed and a key installed (asked);
   * afterwards key-only. Undefined when the user cancelled a question.
   */
  async connectInteractive(target: MachineTarget, signal?: AbortSignal): Promise<MachineConnection | undefined> {
    const service = this.service();
    const store = this.store();
    const { connectMachine, keyOpens, probeHostKey } = machinesCore();
    const login = await service.login(target.deviceId, signal);
    // An own key kept without its passphrase (a restart since): asked again before anything is sent.
    const kept = await store.machineKey(target.deviceId);
    if (kept?.privateKeyFile !== undefined && keyOpens(kept.privateKey, kept.passphrase) === 'needs-passphrase') {
      const entered = await this.askPassphrase(target, kept.privateKeyFile);
      if (!entered) return undefined;
      if (keyOpens(kept.privateKey, entered.passphrase) !== 'ok') throw new ConfigError(coreText('machines.ownKeyWrongPassphrase', kept.privateKeyFile));
      await store.keepPassphrase(target.deviceId, entered);
    }
    if (!(await store.hostKey(target.deviceId))) {
      const presented = await probeHostKey(login, signal);
      if (!(await this.confirmHostKey(target, `${login.host}:${login.port}`, presented.fingerprint))) return undefined;
      await store.pinHostKey(target.deviceId, presented);
    }
    let cancelled = false;
    const chooseKey = async (): Promise<KeyChoice> => {
      const choice = await this.chooseKey(target);
      if (!choice) {
        cancelled = true;
        throw new Refusal(vscode.l10n.t('Connecting was cancelled; no key was installed.'), [], 'warning');
      }
      return choice;
    };
    try {
      return await connectMachine({ deviceId: target.deviceId, login, store, chooseKey, logger: this.services.logger, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (cancelled) return undefined;
      throw error;
    }
  }

  /**
   * A key-only connect (a terminal, a reconnect): never asks; refused when the machine was never connected.
   * `profile`: the machine's own (a terminal keeps it across a profile switch), else the active one.
   */
  async connectKeyOnly(deviceId: number, signal?: AbortSignal, profile?: Profile): Promise<MachineConnection> {
    const service = this.service(profile);
    const store = this.store(profile);
    const key = await store.machineKey(deviceId);
    if (!key || !(await store.hostKey(deviceId))) {
      throw new Refusal(vscode.l10n.t('Machine {0} has no key installed from this editor yet: run Connect… on it first.', deviceId), [], 'warning');
    }
    // A key-only connect never asks: a passphrase not kept is entered again through Connect….
    const { keyOpens } = machinesCore();
    if (key.privateKeyFile !== undefined && keyOpens(key.privateKey, key.passphrase) === 'needs-passphrase') {
      throw new Refusal(vscode.l10n.t('The key of machine {0} needs its passphrase, which was not kept: run Connect… on it to enter it.', deviceId), [], 'warning');
    }
    const { connectRented } = machinesCore();
    return connectRented(service, deviceId, store, () => Promise.reject(new Refusal(vscode.l10n.t('The key of machine {0} was refused; run Connect… on it again.', deviceId))), signal, this.services.logger);
  }

  private async confirmHostKey(target: MachineTarget, address: string, fingerprint: string): Promise<boolean> {
    let go = false;
    const finished = await MultiStepInput.run(async (input) => {
      go = await input.showReview({
        title: vscode.l10n.t('Connect to {0}', target.label),
        go: { label: vscode.l10n.t('Trust this host key and connect'), detail: fingerprint },
        placeholder: vscode.l10n.t('First connection to {0}: its host key is {1}. Trust it?', address, fingerprint),
        lines: [vscode.l10n.t('The key is pinned: if the machine later shows another key, Compute Toolkit refuses to connect and sends nothing.')],
      });
    });
    return finished && go;
  }

  private async chooseKey(target: MachineTarget): Promise<KeyChoice | undefined> {
    const { ownPublicKeys, PassphraseNeededError, readOwnKey } = machinesCore();
    const own = await ownPublicKeys(this.places.sshDir());
    // Offered only when the extension host's own environment names an agent (never a workspace's value).
    const socket = agentSocket(process.env);
    type KeyItem = vscode.QuickPickItem & { file?: string; agent?: boolean };
    const generate: KeyItem = { label: vscode.l10n.t('Generate a key for this machine'), detail: vscode.l10n.t('A new ed25519 key, kept in VS Code\'s secret storage') };
    const agent: KeyItem[] = socket === undefined ? [] : [{ label: vscode.l10n.t('Use my SSH agent'), detail: vscode.l10n.t('A key your SSH agent holds (ssh-agent, a hardware key, 1Password): it never leaves the agent'), agent: true }];
    const items: KeyItem[] = [generate, ...agent, ...own.map((key) => ({ label: path.basename(key.file), description: key.summary, detail: vscode.l10n.t('Your own key: its private key stays in {0}', path.dirname(key.file)), file: key.file }))];
    let picked: KeyItem | undefined;
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({
        title: vscode.l10n.t('Connect to {0}', target.label),
        items,
        activeItem: generate,
        placeholder: vscode.l10n.t('The key to install with the platform\'s password (used once; every later login is by key)'),
      });
    });
    if (finished && picked?.agent === true && socket !== undefined) return this.chooseAgentKey(target, socket);
    if (!finished || !picked) return undefined;
    if (picked.file === undefined) return { kind: 'generate' };
    try {
      return { kind: 'own', key: await readOwnKey(picked.file) };
    } catch (error) {
      if (!(error instanceof PassphraseNeededError)) throw error;
      const entered = await this.askPassphrase(target, error.privateKeyFile);
      if (!entered) return undefined;
      // A wrong passphrase is refused here, before the platform's password is sent.
      return { kind: 'own', key: { ...(await readOwnKey(picked.file, entered.passphrase)), keepPassphrase: entered.keep } };
    }
  }

  /** Which of the agent's keys is installed: only its fingerprint is kept (docs/machines.md). */
  private async chooseAgentKey(target: MachineTarget, socket: string): Promise<KeyChoice | undefined> {
    const keys = await machinesCore().agentKeys(socket);
    if (keys.length === 0) throw new Refusal(vscode.l10n.t('Your SSH agent holds no key. Add one with ssh-add (or unlock your key agent), then connect again.'), [], 'warning');
    const items = keys.map((key) => ({ label: key.summary, description: key.fingerprint, key }));
    let picked: (typeof items)[number] | undefined;
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({ title: vscode.l10n.t('Connect to {0}', target.label), items, placeholder: vscode.l10n.t('The agent key to install on the machine (every later login signs with it through the agent)') });
    });
    if (!finished || !picked) return undefined;
    return { kind: 'own', key: { publicKey: picked.key.publicKey, privateKey: '', agent: { fingerprint: picked.key.fingerprint, socket } } };
  }

  /** The own key's passphrase (never shown, logged or kept unless the user picks to keep it). */
  private async askPassphrase(target: MachineTarget, privateKeyFile: string): Promise<{ passphrase: string; keep: boolean; keepPassphrase: boolean } | undefined> {
    let passphrase = '';
    let keep = false;
    const file = shownValue(privateKeyFile, 200);
    const finished = await MultiStepInput.run(async (input) => {
      passphrase = await input.showInputBox({
        title: vscode.l10n.t('Connect to {0}', target.label),
        step: 1,
        totalSteps: 2,
        value: '',
        password: true,
        prompt: vscode.l10n.t('The passphrase of {0}', file),
        validate: (value) => (value === '' ? vscode.l10n.t('Enter the passphrase') : value.length > 1024 ? vscode.l10n.t('At most {0} characters', 1024) : undefined),
      });
      return async (next: MultiStepInput) => {
        const session = { label: vscode.l10n.t('Only for this session'), detail: vscode.l10n.t('Asked again after the editor restarts; a terminal then reopens only after Connect…') };
        const store = { label: vscode.l10n.t('Keep it in VS Code\'s secret storage'), detail: vscode.l10n.t('Reconnects and reopened terminals use it without asking') };
        const picked = await next.showQuickPick({ title: vscode.l10n.t('Connect to {0}', target.label), step: 2, totalSteps: 2, items: [session, store], activeItem: session, placeholder: vscode.l10n.t('Keep the passphrase of {0}?', file) });
        keep = picked === store;
      };
    });
    return finished && passphrase !== '' ? { passphrase, keep, keepPassphrase: keep } : undefined;
  }
}
