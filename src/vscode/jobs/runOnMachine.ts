// Run on GPU with a rented machine as the target (docs/machines.md "Run on a machine"): the folder sent
// over SFTP with the volumes' sync, the command run in it over SSH with its output in the run's terminal,
// its exit code and the rental's time left. `.compute/run.json` remembers the machine; as workspace
// content, the machine it names must be one of the active profile's Serving machines, and the review
// (Cancel first) shows every value it decides before anything is sent (docs/security.md).

import * as path from 'node:path';
import * as vscode from 'vscode';
import { RUN_CONFIG_PATH, type MachineRunConfig } from '../../core/jobs/runConfig';
import type { MachineCommand } from '../../core/machines/machineRun';
import { machinesCore } from '../../core/lazyModules';
import { safeFileName } from '../../core/safeFileName';
import { shownValue } from '../../core/shownValue';
import type { SshConnection } from '../../core/ssh/sshConnection';
import { errorText } from '../errors/errorText';
import type { ExtensionServices } from '../services';
import { confirmSpend, MultiStepInput } from '../ui/multiStepInput';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';
import { formatBytesShort } from '../runs/format';
import { JobTerminal } from '../runs/jobTerminal';
import type { MachineChoice, MachineRunPort } from '../runs/machineRunPort';
import { writeRunFile } from './runFile';

export interface MachineRunPlace {
  root: vscode.Uri;
  folder: vscode.Uri;
  file?: vscode.Uri;
}

/** Where to run, asked when the profile has Serving machines: a batch job (first), or one of them. */
export async function pickRunTarget(machines: readonly MachineChoice[], preferred: number | undefined): Promise<'job' | MachineChoice | undefined> {
  type Item = vscode.QuickPickItem & { machine?: MachineChoice };
  const job: Item = { label: vscode.l10n.t('Batch job'), detail: vscode.l10n.t('A GPU started for this run, billed while it runs; the folder goes to a NAS volume') };
  const items: Item[] = [
    job,
    ...machines.map((machine) => {
      const left = machine.timeLeft();
      return { label: machine.label, description: left === undefined ? '' : vscode.l10n.t('{0} left', left), detail: vscode.l10n.t('Your rented machine: the folder is sent over SSH and the command runs there'), machine };
    }),
  ];
  let picked: Item | undefined;
  const finished = await MultiStepInput.run(async (input) => {
    picked = await input.showQuickPick({ title: vscode.l10n.t('Run on GPU'), items, activeItem: items.find((item) => item.machine?.deviceId === preferred) ?? job, placeholder: vscode.l10n.t('Where to run') });
  });
  if (!finished || !picked) return undefined;
  return picked.machine ?? 'job';
}

/** The command a new run proposes: the chosen file run with python (or sh), else `python train.py`. */
export function defaultCommand(place: MachineRunPlace): string {
  // eslint-disable-next-line no-restricted-syntax -- a shell command, not prose
  if (!place.file) return 'python train.py';
  const relative = path.relative(place.folder.fsPath, place.file.fsPath).split(path.sep).join('/');
  return place.file.fsPath.endsWith('.py') ? `python ${relative}` : `sh ${relative}`;
}

/** The command to run on the machine (the last run's comes back); undefined when the user backs out. */
async function askMachineConfig(place: MachineRunPlace, machine: MachineChoice, previous: MachineRunConfig | undefined): Promise<MachineRunConfig | undefined> {
  let command = previous?.command ?? defaultCommand(place);
  const finished = await MultiStepInput.run(async (input) => {
    command = await input.showInputBox({
      title: vscode.l10n.t('Run on {0}', machine.label),
      step: 1,
      totalSteps: 1,
      value: command,
      prompt: vscode.l10n.t('Command: runs in the synced folder on the machine'),
      validate: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a command') : value.length > 4096 ? vscode.l10n.t('At most {0} characters', 4096) : undefined),
    });
  });
  if (!finished) return undefined;
  const folderName = safeFileName(path.basename(place.folder.fsPath), 'project', 40);
  return {
    version: 1,
    target: 'machine',
    name: folderName,
    command: command.trim(),
    folder: path.relative(place.root.fsPath, place.folder.fsPath).split(path.sep).join('/'),
    env: previous?.env ?? [{ name: 'PYTHONUNBUFFERED', value: '1' }],
    machine: { deviceId: machine.deviceId, remoteDir: previous?.machine.deviceId === machine.deviceId ? previous.machine.remoteDir : `runs/${folderName}` },
  };
}

/** Every value run.json decides, for the review (shown through shownValue: nothing hides in them). */
export function machineRunFactLines(config: MachineRunConfig, machine: MachineChoice, profile: { label: string; environment?: string }, place: MachineRunPlace): string[] {
  const left = machine.timeLeft();
  return [
    profile.environment === 'prod' ? vscode.l10n.t('Profile: {0} (PRODUCTION)', profile.label) : vscode.l10n.t('Profile: {0}', profile.label),
    vscode.l10n.t('Settings from {0}', vscode.workspace.asRelativePath(vscode.Uri.joinPath(place.root, RUN_CONFIG_PATH), true)),
    vscode.l10n.t('Machine: {0}{1}', machine.label, left === undefined ? '' : vscode.l10n.t(' · {0} left on the rental', left)),
    vscode.l10n.t('Folder synced: {0} → ~/{1} on the machine', shownValue(vscode.workspace.asRelativePath(place.folder, true), 200), shownValue(config.machine.remoteDir, 200)),
    vscode.l10n.t('Command: {0}', shownValue(config.command, 600)),
    ...config.env.map((entry) => vscode.l10n.t('Env {0} = {1} (written in {2})', entry.name, JSON.stringify(shownValue(entry.value, 160)), RUN_CONFIG_PATH)),
  ];
}

export interface MachineRunHooks {
  terminals: Set<JobTerminal>;
  runTerminals: Map<string, JobTerminal>;
  /** Run Again from the run's notification. */
  runAgain(root: vscode.Uri): Promise<void>;
}

/**
 * Runs on a machine: `saved` is run.json's machine run (Run Again runs it as it is), `picked` the machine
 * chosen for a new run (the command is asked). The machine must be Serving for the active profile.
 */
export async function runOnMachine(services: ExtensionServices, port: MachineRunPort, hooks: MachineRunHooks, place: MachineRunPlace, choice: { saved?: MachineRunConfig; picked?: MachineChoice; again: boolean }): Promise<void> {
  const profile = services.profiles.active;
  if (!profile) return;
  const wanted = choice.picked?.deviceId ?? choice.saved?.machine.deviceId;
  const machine = (await port.serving(true)).find((candidate) => candidate.deviceId === wanted);
  if (!machine) {
    services.refusals.show(vscode.l10n.t('Machine {0} (in {1}) is not a Serving machine of profile {2}: Run on GPU runs only on your own rented machines. Nothing was sent.', wanted ?? '—', RUN_CONFIG_PATH, profile.label), []);
    return;
  }
  const config = choice.again && choice.saved ? choice.saved : await askMachineConfig(place, machine, choice.saved);
  if (!config) return;
  const confirmed = await confirmSpend({
    title: vscode.l10n.t('Run on {0}', machine.label),
    go: { label: vscode.l10n.t('Sync and run on {0}', machine.label), detail: vscode.l10n.t('The machine is already rented: this run adds no cost') },
    placeholder: vscode.l10n.t('Send {0} to the machine and run "{1}"?', shownValue(vscode.workspace.asRelativePath(place.folder, true), 120), shownValue(config.command, 200)),
    lines: machineRunFactLines(config, machine, profile, place),
  });
  if (!confirmed) return;
  if (!(await port.ready(machine.deviceId))) return;
  await writeRunFile(place.root, config);

  const abort = new AbortController();
  let command: MachineCommand | undefined;
  let interrupted = false;
  const runKey = place.folder.toString();
  const handlers = {
    onClose: () => {
      abort.abort();
      command?.stop();
      hooks.terminals.delete(terminal);
      if (hooks.runTerminals.get(runKey) === terminal) hooks.runTerminals.delete(runKey);
    },
    onInterrupt: async () => {
      // The first Ctrl+C goes to the command (as in a terminal); the next one closes it.
      if (!command) {
        abort.abort();
        terminal.warn(vscode.l10n.t('Cancelled before the command started.'));
      } else if (interrupted) command.stop();
      else command.interrupt();
      interrupted = true;
    },
  };
  const finished = hooks.runTerminals.get(runKey);
  const reused = finished !== undefined && finished.idle && !finished.isClosed;
  const terminal: JobTerminal = reused ? finished.reuse(handlers) : new JobTerminal({ name: vscode.l10n.t('Machine: {0}', config.name), ...handlers });
  hooks.terminals.add(terminal);
  hooks.runTerminals.set(runKey, terminal);
  terminal.show();
  if (reused) terminal.info(vscode.l10n.t('──── New run of {0} ────', config.name));
  const left = machine.timeLeft();
  terminal.info(vscode.l10n.t('Syncing {0} to ~/{1} on {2}…', vscode.workspace.asRelativePath(place.folder, true), config.machine.remoteDir, machine.label));
  const started = Date.now();
  let connection: SshConnection | undefined;
  try {
    const core = machinesCore();
    const sync = await core.syncToMachine(port.sessions(), machine.deviceId, place.folder.fsPath, config.machine.remoteDir, abort.signal);
    terminal.info(vscode.l10n.t('Synced: {0} sent ({1}), {2} unchanged', counted(sync.sent, 'file'), formatBytesShort(sync.bytes), sync.skipped.toLocaleString(vscode.env.language)));
    connection = await port.connect(machine.deviceId, abort.signal);
    if (abort.signal.aborted) return;
    command = await core.startMachineCommand({ connection, remoteDir: config.machine.remoteDir, command: config.command, env: config.env, onLine: (text) => terminal.lines([{ pod: '', podIndex: 0, text }], false, '') });
    terminal.info(left === undefined ? vscode.l10n.t('Running. Ctrl+C interrupts the command.') : vscode.l10n.t('Running ({0} left on the rental). Ctrl+C interrupts the command.', left));
    const code = await command.done;
    const ok = code === 0;
    const leftNow = machine.timeLeft();
    const summary = vscode.l10n.t(
      '{0}: exit code {1} · {2}{3}',
      machine.label,
      code ?? '—',
      durationText((Date.now() - started) / 1000),
      leftNow === undefined ? '' : vscode.l10n.t(' · {0} left on the rental', leftNow),
    );
    terminal.result(ok, summary);
    if (terminal.isClosed) return;
    const runAgain = vscode.l10n.t('Run Again');
    // eslint-disable-next-line no-restricted-syntax -- an outcome notice, as Run on GPU's job summary
    const show = ok ? vscode.window.showInformationMessage : vscode.window.showErrorMessage;
    void show(summary, runAgain).then((action) => (action === runAgain ? hooks.runAgain(place.root) : undefined));
  } catch (error) {
    if (abort.signal.aborted) return;
    terminal.result(false, vscode.l10n.t('Run on {0} failed: {1}', machine.label, errorText(error)));
    throw error;
  } finally {
    connection?.close();
    terminal.idle = true;
  }
}
