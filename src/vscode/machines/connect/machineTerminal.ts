// *Open Terminal* on a machine (docs/machines.md): an integrated terminal whose pty is a shell on the
// machine over SSH (core/machines/machineShell.ts) — typing, Ctrl+C and resizes go to it, `exit` closes
// the terminal. A dropped connection is said in the terminal and in its name (reconnecting n/N, then
// disconnected: Enter tries again; an ended rental is said once, without a retry). Our own lines pass the terminal-text module (src/core/terminalText.ts);
// the machine's output is the terminal's own (a real pty, colours and cursor moves included).

import * as vscode from 'vscode';
import type { MachineShell, MachineShellState } from '../../../core/machines';
import { machinesCore } from '../../../core/lazyModules';
import { RentalEndedError } from '../../../core/machines/rentalEnded';
import type { SshConnection } from '../../../core/ssh';
import { interactiveShellOutput, terminalNotice, type TerminalChunk } from '../../../core/terminalText';
import { errorText } from '../../errors/errorText';
import { durationText } from '../../ui/duration';

/** What the tests read of an open machine terminal: its state and the text it was given (bounded). */
export interface MachineTerminalRecord {
  deviceId: number;
  /** The profile the terminal was opened under: its keys reconnect it, its activity is that profile's. */
  profileId: string;
  terminal: vscode.Terminal;
  state(): MachineShellState['kind'] | 'starting';
  text(): string;
}

const KEPT_TEXT = 64 * 1024;

/** The terminal's name in its tab (never written into the terminal). */
type TerminalTitle = string;

export function openMachineTerminal(deviceId: number, label: string, profileId: string, connect: (signal: AbortSignal) => Promise<SshConnection>, onRecord: (record: MachineTerminalRecord) => () => void): vscode.Terminal {
  const write = new vscode.EventEmitter<TerminalChunk>();
  const close = new vscode.EventEmitter<number | void>();
  const rename = new vscode.EventEmitter<TerminalTitle>();
  let kept = '';
  let state: MachineShellState['kind'] | 'starting' = 'starting';
  let shell: MachineShell | undefined;
  /** The rental is over: nothing to reconnect to. */
  let ended = false;
  const emit = (text: TerminalChunk): void => {
    kept = (kept + text).slice(-KEPT_TEXT);
    write.fire(text);
  };
  const say = (line: string): void => emit(terminalNotice(line));
  const onState = (next: MachineShellState): void => {
    state = next.kind;
    switch (next.kind) {
      case 'connecting':
        if (next.attempt > 1) rename.fire(vscode.l10n.t('{0} (reconnecting {1}/{2})', label, next.attempt, next.of));
        break;
      case 'open':
        rename.fire(label);
        break;
      case 'lost':
        say(vscode.l10n.t('The connection to {0} was lost ({1}). Reconnecting ({2}/{3}) in {4}…', label, next.reason, next.attempt, next.of, durationText(next.waitMs / 1000, { round: 'up' })));
        rename.fire(vscode.l10n.t('{0} (reconnecting {1}/{2})', label, next.attempt, next.of));
        break;
      case 'gave-up':
        if (next.error instanceof RentalEndedError) {
          ended = true;
          // Over for good: no retry offered (Enter would only say this again).
          say(errorText(next.error));
          rename.fire(vscode.l10n.t('{0} (rental ended)', label));
          break;
        }
        say(vscode.l10n.t('Could not connect to {0}: {1}', label, errorText(next.error)));
        say(vscode.l10n.t('Press Enter to try again, or close the terminal.'));
        rename.fire(vscode.l10n.t('{0} (disconnected)', label));
        break;
      case 'exited':
        close.fire(next.code);
        break;
      case 'closed':
        break;
    }
  };
  let forget: () => void = () => undefined;
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    onDidClose: close.event,
    onDidChangeName: rename.event,
    open: (dimensions) => {
      const { MachineShell } = machinesCore();
      shell = new MachineShell({ connect, rows: dimensions?.rows ?? 24, cols: dimensions?.columns ?? 80, onData: (data) => emit(interactiveShellOutput(data)), onState });
      say(vscode.l10n.t('Connecting to {0}…', label));
      void shell.start();
    },
    handleInput: (data) => {
      if (state === 'gave-up') {
        if (data.includes('\r') && !ended) void shell?.reconnect();
        return;
      }
      shell?.write(data);
    },
    setDimensions: (dimensions) => shell?.resize(dimensions.rows, dimensions.columns),
    close: () => {
      shell?.close();
      forget();
      write.dispose();
      close.dispose();
      rename.dispose();
    },
  };
  // Transient: VS Code would otherwise keep a dead copy of it; the extension reopens it (terminalRestore.ts).
  const terminal = vscode.window.createTerminal({ name: label, pty, iconPath: new vscode.ThemeIcon('remote'), isTransient: true });
  forget = onRecord({ deviceId, profileId, terminal, state: () => state, text: () => kept });
  return terminal;
}

export type { MachineShellState };
