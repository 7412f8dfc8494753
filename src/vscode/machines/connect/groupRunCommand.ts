// *Run on Machine Group…* (docs/machines.md "Run on a machine group"): a network group's Serving machines
// (or 2+ picked), the workspace folder synced to each with the machine run's sync, the user's command
// line (torchrun given the group's variables by default) run on all of them at once with each rank's
// variables exported (core/machines/groupRun.ts), after a review that opens on Cancel. One terminal:
// lines tagged `[rank N]` as they arrive, Ctrl+C stops every machine, each machine's exit code at the end.
// The rendezvous port is the command's own or one free on rank 0 (core/machines/masterPort.ts), shown first.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GroupRun, RankResult } from '../../../core/machines/groupRun';
import type { MasterPort } from '../../../core/machines/masterPort';
import { timeLeftMs, type RentedMachine } from '../../../core/machines/machineState';
import { machinesCore } from '../../../core/lazyModules';
import { realPathInside } from '../../../core/localLinks';
import { safeFileName } from '../../../core/safeFileName';
import { shownValue } from '../../../core/shownValue';
import type { SshConnection } from '../../../core/ssh/sshConnection';
import { Commands } from '../../commandIds';
import { errorText } from '../../errors/errorText';
import { Refusal } from '../../errors/refusal';
import { formatBytesShort } from '../../runs/format';
import { JobTerminal } from '../../runs/jobTerminal';
import { resolveTarget } from '../../runs/runTarget';
import type { MachineRunPort } from '../../runs/machineRunPort';
import type { ExtensionServices } from '../../services';
import { counted } from '../../ui/counts';
import { durationText } from '../../ui/duration';
import { confirmSpend, MultiStepInput } from '../../ui/multiStepInput';
import { timeLeftText } from '../machineText';
import { deviceIdOf, machineLabel } from './machineConnector';

const MAX_COMMAND = 4096;

/** A rank's line prefix: as torchrun's own `[rank N]`, not translated (a tag users grep for). */
const tag = (rank: number): string => `[rank ${rank}]`;

/** A label from the platform made plain and short. */
const plainName = (text: string): string => text.replace(/[^\x20-\x7e\u4e00-\u9fff]/g, '').slice(0, 60);

/** The network groups with 2+ Serving machines, machines in rank order (device id). */
function servingGroups(serving: readonly RentedMachine[]): { name: string; machines: RentedMachine[] }[] {
  const groups = new Map<number, RentedMachine[]>();
  for (const machine of serving) if (machine.group) groups.set(machine.group.networkId, [...(groups.get(machine.group.networkId) ?? []), machine]);
  return [...groups.values()].filter((members) => members.length >= 2).map((members) => ({ name: plainName(members[0]?.group?.name ?? '') || String(members[0]?.group?.networkId), machines: byRank(members) }));
}

const byRank = (machines: readonly RentedMachine[]): RentedMachine[] => [...machines].sort((a, b) => a.deviceId - b.deviceId);

export class GroupRunner implements vscode.Disposable {
  /** The group runs' terminals (tests read their lines). */
  readonly terminals = new Set<JobTerminal>();
  private lastCommand: string | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly port: MachineRunPort,
    private readonly rentedMachines: (fresh?: boolean) => Promise<readonly RentedMachine[]>,
  ) {}

  /** The machines in rank order: a Machines view row's group, or asked; undefined when the user backed out. */
  private async machines(arg: unknown): Promise<RentedMachine[] | undefined> {
    const profile = this.services.profiles.active?.label ?? '';
    const serving = (await this.rentedMachines(true)).filter((machine) => machine.status === 'Serving');
    const given = deviceIdOf(arg);
    if (given !== undefined) {
      const machine = serving.find((candidate) => candidate.deviceId === given);
      const members = machine?.group ? serving.filter((candidate) => candidate.group?.networkId === machine.group?.networkId) : [];
      if (members.length < 2) throw new Refusal(vscode.l10n.t('Machine {0} is not in a network group of profile {1} with 2 or more Serving machines. Nothing was sent.', given, profile), [], 'warning');
      return byRank(members);
    }
    if (serving.length < 2) throw new Refusal(vscode.l10n.t('A group run needs 2 or more Serving machines of profile {0}: rent a network group first.', profile), [], 'warning');
    type Item = vscode.QuickPickItem & { machines?: RentedMachine[] };
    const items: Item[] = [
      ...servingGroups(serving).map((group) => ({ label: vscode.l10n.t('Network group {0}', group.name), description: counted(group.machines.length, 'machine'), detail: group.machines.map((machine) => machine.deviceId).join(', '), machines: group.machines })),
      { label: vscode.l10n.t('Pick Machines…'), detail: vscode.l10n.t('2 or more of your Serving machines, on one network') },
    ];
    let picked: Item | undefined;
    let chosen: RentedMachine[] | undefined;
    // Pick Machines… is the flow's second step (Back returns to the groups).
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({ title: vscode.l10n.t('Run on Machine Group'), step: 1, items, placeholder: vscode.l10n.t('The machines to run on') });
      if (picked.machines) return;
      return async (next: MultiStepInput) => {
        const checked = await next.showMultiPick({
          title: vscode.l10n.t('Run on Machine Group'),
          step: 2,
          items: serving.map((machine) => ({ label: machineLabel(machine), description: machine.group ? plainName(machine.group.name) : '', machine })),
          placeholder: vscode.l10n.t('2 or more machines; the lowest device id is rank 0'),
        });
        chosen = checked.map((item) => item.machine);
      };
    });
    if (!finished || !picked) return undefined;
    if (picked.machines) return picked.machines;
    if (!chosen) return undefined;
    if (chosen.length < 2) throw new Refusal(vscode.l10n.t('Pick 2 or more machines for a group run.'), [], 'warning');
    return byRank(chosen);
  }

  private async askCommand(machines: readonly RentedMachine[], proposed: string): Promise<string | undefined> {
    let command = this.lastCommand ?? proposed;
    const finished = await MultiStepInput.run(async (input) => {
      command = await input.showInputBox({
        title: vscode.l10n.t('Run on {0}', counted(machines.length, 'machine')),
        step: 1,
        totalSteps: 1,
        value: command,
        prompt: vscode.l10n.t('Command for every machine, in the synced folder: $NNODES, $NODE_RANK, $NPROC_PER_NODE, $MASTER_ADDR and $MASTER_PORT are set on each (use your own launcher if you like)'),
        validate: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a command') : value.length > MAX_COMMAND ? vscode.l10n.t('At most {0} characters', MAX_COMMAND) : undefined),
      });
    });
    return finished ? command.trim() : undefined;
  }

  private timeLeft(machine: RentedMachine): string {
    const left = timeLeftMs(machine, Date.now());
    return left === undefined ? '' : vscode.l10n.t(' · {0} left on the rental', timeLeftText(left));
  }

  async run(arg?: unknown): Promise<void> {
    const title = vscode.l10n.t('Run on Machine Group');
    if (!this.services.trust.allows(title, () => vscode.commands.executeCommand(Commands.machineGroupRun, arg))) return;
    const profile = await this.services.requireProfile();
    if (!profile) return;
    // From the Explorer: that folder, the machines asked; from a Machines view row: its group, the workspace folder.
    const folderArg = arg instanceof vscode.Uri ? arg : undefined;
    const place = resolveTarget(folderArg);
    if (!place || (await realPathInside([place.root.fsPath], place.folder.fsPath).catch(() => undefined)) === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: a group run syncs the workspace folder on this computer to each machine.'));
      return;
    }
    const machines = await this.machines(folderArg ? undefined : arg);
    if (!machines) return;
    const core = machinesCore();
    const nprocPerNode = Math.max(1, Math.min(...machines.map((machine) => machine.gpuCount)));
    // Checked before anything is asked: every machine needs an inner IP (the rendezvous is rank 0's).
    const ranks = core.groupRankEnvs({ innerIps: machines.map((machine) => machine.innerIp), nprocPerNode });
    const master = ranks[0]?.innerIp ?? '';
    const folderName = safeFileName(path.basename(place.folder.fsPath), 'project', 40);
    const remoteDir = `runs/${folderName}`;
    const command = await this.askCommand(machines, core.defaultGroupCommand('train.py'));
    if (command === undefined) return;
    this.lastCommand = command;
    const ownPort = core.commandMasterPort(command);
    const portShown = ownPort !== undefined ? String(ownPort) : vscode.l10n.t('<a free port on rank 0>');
    const folderShown = shownValue(vscode.workspace.asRelativePath(place.folder, true), 200);
    const confirmed = await confirmSpend({
      title: vscode.l10n.t('Run on {0}', counted(machines.length, 'machine')),
      go: { label: vscode.l10n.t('Sync and run on {0}', counted(machines.length, 'machine')), detail: vscode.l10n.t('The machines are already rented: this run adds no cost') },
      placeholder: vscode.l10n.t('Send {0} to every machine and run "{1}"?', folderShown, shownValue(command, 200)),
      lines: [
        profile.environment === 'prod' ? vscode.l10n.t('Profile: {0} (PRODUCTION)', profile.label) : vscode.l10n.t('Profile: {0}', profile.label),
        ...machines.map((machine, rank) => vscode.l10n.t('Rank {0}: {1} · inner IP {2}{3}', rank, machineLabel(machine), shownValue(machine.innerIp, 45), this.timeLeft(machine))),
        ownPort !== undefined ? vscode.l10n.t('Rendezvous: {0}:{1} (rank 0, the port your command names)', shownValue(master, 45), ownPort) : vscode.l10n.t('Rendezvous: {0} (rank 0), on a port free there, picked when the run starts', shownValue(master, 45)),
        vscode.l10n.t('Processes per machine: {0}', nprocPerNode),
        vscode.l10n.t('Folder synced: {0} → ~/{1} on each machine', folderShown, remoteDir),
        vscode.l10n.t('Command: {0}', shownValue(command, 600)),
        vscode.l10n.t('Each machine gets NNODES={0} NODE_RANK=<its rank> NPROC_PER_NODE={1} MASTER_ADDR={2} MASTER_PORT={3}', machines.length, nprocPerNode, shownValue(master, 45), portShown),
      ],
    });
    if (!confirmed) return;
    for (const machine of machines) if (!(await this.port.ready(machine.deviceId))) return;
    await this.start(machines, place.folder, remoteDir, command, nprocPerNode);
  }

  private async start(machines: readonly RentedMachine[], folder: vscode.Uri, remoteDir: string, command: string, nprocPerNode: number): Promise<void> {
    const abort = new AbortController();
    let run: GroupRun | undefined;
    const terminal: JobTerminal = new JobTerminal({
      name: vscode.l10n.t('Group: {0}', path.basename(remoteDir)),
      onClose: () => {
        abort.abort();
        run?.stop();
        this.terminals.delete(terminal);
      },
      onInterrupt: async () => {
        abort.abort();
        if (run) terminal.warn(vscode.l10n.t('Stopping the command on every machine…'));
        else terminal.warn(vscode.l10n.t('Cancelled before the command started.'));
        run?.stop();
      },
    });
    this.terminals.add(terminal);
    terminal.show();
    const connections: SshConnection[] = [];
    const started = Date.now();
    try {
      const core = machinesCore();
      terminal.info(vscode.l10n.t('Syncing {0} to ~/{1} on {2}…', vscode.workspace.asRelativePath(folder, true), remoteDir, counted(machines.length, 'machine')));
      await Promise.all(
        machines.map(async (machine, rank) => {
          const sync = await core.syncToMachine(this.port.sessions(), machine.deviceId, folder.fsPath, remoteDir, abort.signal);
          terminal.info(vscode.l10n.t('{0} {1}: synced, {2} sent ({3}), {4} unchanged', tag(rank), machineLabel(machine), counted(sync.sent, 'file'), formatBytesShort(sync.bytes), sync.skipped.toLocaleString(vscode.env.language)));
        }),
      );
      for (const machine of machines) connections.push(await this.port.connect(machine.deviceId, abort.signal));
      if (abort.signal.aborted) return;
      const rendezvous = await core.pickMasterPort(connections[0] as SshConnection, { command, signal: abort.signal });
      if (abort.signal.aborted) return;
      terminal.info(this.rendezvousHeader(machines[0]?.innerIp ?? '', rendezvous));
      run = await core.startGroupCommand({
        machines: machines.map((machine, rank) => ({ deviceId: machine.deviceId, innerIp: machine.innerIp, connection: connections[rank] as SshConnection })),
        nprocPerNode,
        masterPort: rendezvous.port,
        remoteDir,
        command,
        env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
        onLine: (rank, line) => terminal.tagged(tag(rank), line),
        rankZero: { graceMs: this.services.config.machineRankZeroGraceMs, onStopping: (code) => terminal.warn(vscode.l10n.t('{0} (the rendezvous host) ended with exit code {1}: the other machines cannot meet without it, so they are being stopped.', tag(0), code ?? '—')) },
      });
      terminal.info(vscode.l10n.t('Running on {0}. Ctrl+C stops every machine.', counted(machines.length, 'machine')));
      const results = await run.done;
      this.report(terminal, machines, results, started);
    } catch (error) {
      if (abort.signal.aborted) return;
      terminal.result(false, vscode.l10n.t('The group run failed: {0}', errorText(error)));
      throw error;
    } finally {
      for (const connection of connections) connection.close();
      terminal.idle = true;
    }
  }

  /** The group log's first line about the run: where the ranks meet, and how the port was chosen. */
  private rendezvousHeader(master: string, rendezvous: MasterPort): string {
    const address = `${shownValue(master, 45)}:${rendezvous.port}`;
    if (rendezvous.source === 'command') return vscode.l10n.t('Rendezvous: {0} (rank 0, the port your command names; free there)', address);
    if (rendezvous.source === 'free') return vscode.l10n.t('Rendezvous: {0} (rank 0, a port free there)', address);
    return vscode.l10n.t('Rendezvous: {0} (rank 0; the machine could not be asked whether the port is free)', address);
  }

  /** Each machine's exit code, then one summary (also as a notification). */
  private report(terminal: JobTerminal, machines: readonly RentedMachine[], results: readonly RankResult[], started: number): void {
    for (const result of results) {
      const machine = machines[result.rank];
      terminal.result(result.code === 0, vscode.l10n.t('{0} {1}: exit code {2}{3}', tag(result.rank), machine ? machineLabel(machine) : result.deviceId, result.code ?? '—', machine ? this.timeLeft(machine) : ''));
    }
    const failed = results.filter((result) => result.code !== 0).length;
    const summary = vscode.l10n.t('Group run on {0}: {1} exited 0, {2} failed · {3}', counted(machines.length, 'machine'), results.length - failed, failed, durationText((Date.now() - started) / 1000));
    terminal.result(failed === 0, summary);
    if (terminal.isClosed) return;
    // eslint-disable-next-line no-restricted-syntax -- an outcome notice, as a machine run's summary
    void (failed === 0 ? vscode.window.showInformationMessage : vscode.window.showErrorMessage)(summary);
  }

  dispose(): void {
    for (const terminal of this.terminals) terminal.dispose();
  }
}
