// Machine terminals come back after the editor restarts or reloads (docs/machines.md "Connecting from the
// editor"). VS Code does not keep an extension's terminals across a restart, so the window's workspaceState
// holds which machine terminals are open (core/machines/terminalRecords.ts): an entry is added when one
// opens and removed when the user closes it or its shell exits — not when the window closes (exit reason
// Shutdown). On activation, and when a profile becomes active, that profile's entries are opened again
// with the key and pinned host key from SecretStorage (key-only: nothing is asked); an entry that cannot
// be is dropped and the user is told why, once.

import * as vscode from 'vscode';
import {
  planTerminalRestore,
  readTerminalEntries,
  withTerminal,
  withoutTerminal,
  type MachineTerminalEntry,
  type TerminalRestoreSkip,
} from '../../../core/machines/terminalRecords';
import { StateKeys } from '../../commandIds';

export interface TerminalRestoreResult {
  opened: number[];
  skipped: { deviceId: number; reason: TerminalRestoreSkip }[];
}

/** What a restore needs from the connect area. */
export interface TerminalRestorePorts {
  profileId(): string | undefined;
  /** The active profile's Serving machines, from a fresh look of the store. */
  serving(): Promise<ReadonlySet<number>>;
  /** Whether a key and a pinned host key are stored for the machine on the active profile. */
  hasKey(deviceId: number): Promise<boolean>;
  /** Opens a machine terminal as *Open Terminal* does once the machine has a key (it calls `remember`). */
  open(deviceId: number): void;
  /** Tells the user why some terminals did not come back. */
  explain(message: string): void;
}

export class MachineTerminalMemory implements vscode.Disposable {
  private readonly open = new Map<vscode.Terminal, MachineTerminalEntry>();
  /** Terminals closed by `closeForRestart`: kept in the stored list, as a window's close keeps them. */
  private readonly closingForRestart = new Set<vscode.Terminal>();
  private readonly closed: vscode.Disposable;

  constructor(private readonly memento: vscode.Memento) {
    this.closed = vscode.window.onDidCloseTerminal((terminal) => {
      const entry = this.open.get(terminal);
      if (!entry) return;
      this.open.delete(terminal);
      if (this.closingForRestart.delete(terminal) || terminal.exitStatus?.reason === vscode.TerminalExitReason.Shutdown) return;
      void this.store(withoutTerminal(this.entries(), entry));
    });
  }

  /** The stored entries, validated (workspaceState is read back untrusted). */
  entries(): MachineTerminalEntry[] {
    return readTerminalEntries(this.memento.get(StateKeys.machineTerminals));
  }

  remember(terminal: vscode.Terminal, entry: MachineTerminalEntry): void {
    this.open.set(terminal, entry);
    void this.store(withTerminal(this.entries(), entry));
  }

  /**
   * Opens the active profile's stored terminals again. Nothing is listed when none are stored (an
   * activation without machine terminals makes no request).
   */
  async restore(ports: TerminalRestorePorts): Promise<TerminalRestoreResult> {
    const profileId = ports.profileId();
    if (profileId === undefined) return { opened: [], skipped: [] };
    // Those of its terminals still open in this session (a profile switched away and back) stay as they are.
    let mine = this.entries().filter((entry) => entry.profileId === profileId);
    for (const open of this.open.values()) mine = withoutTerminal(mine, open);
    if (mine.length === 0) return { opened: [], skipped: [] };
    const serving = await ports.serving();
    const withKey = new Set<number>();
    for (const deviceId of new Set(mine.map((entry) => entry.deviceId))) if (await ports.hasKey(deviceId)) withKey.add(deviceId);
    const plan = planTerminalRestore(mine, profileId, serving, withKey);
    // Each reopened terminal stores its entry again as it opens; the ones that cannot come back are dropped.
    let kept = this.entries();
    for (const entry of mine) kept = withoutTerminal(kept, entry);
    await this.store(kept);
    for (const deviceId of plan.open) ports.open(deviceId);
    if (plan.skipped.length > 0) ports.explain(skippedText(plan.skipped));
    return { opened: plan.open, skipped: plan.skipped };
  }

  /** For the in-host tests: closes the open machine terminals as a window's close does (their entries stay). */
  async closeForRestart(): Promise<void> {
    const terminals = [...this.open.keys()];
    const allClosed = new Promise<void>((resolve) => {
      const pending = new Set(terminals);
      if (pending.size === 0) resolve();
      const listener = vscode.window.onDidCloseTerminal((terminal) => {
        pending.delete(terminal);
        if (pending.size === 0) {
          listener.dispose();
          resolve();
        }
      });
    });
    for (const terminal of terminals) {
      this.closingForRestart.add(terminal);
      terminal.dispose();
    }
    await allClosed;
  }

  private store(entries: MachineTerminalEntry[]): Thenable<void> {
    return this.memento.update(StateKeys.machineTerminals, entries);
  }

  dispose(): void {
    this.closed.dispose();
  }
}

function skippedText(skipped: readonly { deviceId: number; reason: TerminalRestoreSkip }[]): string {
  const reasons = skipped.map(({ deviceId, reason }) =>
    reason === 'ended'
      ? vscode.l10n.t('Machine {0}: it is no longer Serving on this profile (the rental ended).', deviceId)
      : vscode.l10n.t('Machine {0}: no key for it is stored in this editor any more; run Connect… on it again.', deviceId),
  );
  return vscode.l10n.t('Machine terminals open before the restart were not all reopened. {0}', reasons.join(' '));
}
