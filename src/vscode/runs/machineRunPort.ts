// What the machine connections area lends a run on a rented machine (Run on GPU's machine target, the
// group run): below both, so neither sits on the other.

import type { SyncSessions } from '../../core/nas/sync';
import type { SshConnection } from '../../core/ssh/sshConnection';

/** A Serving machine of the active profile, as the run shows it. */
export interface MachineChoice {
  deviceId: number;
  label: string;
  /** The rental's time left in words ("3 h 5 min"), read when asked; undefined when the platform gave no end. */
  timeLeft(): string | undefined;
  /** The rental's price as the platform gives it ("¥12.00 per Hour pack"); undefined when not a price. */
  price: string | undefined;
}

/** What the machine connections area lends a run (src/vscode/machines/connect). */
export interface MachineRunPort {
  /** The active profile's Serving machines as the store holds them (`fresh`: polled now). */
  serving(fresh: boolean): Promise<readonly MachineChoice[]>;
  /** A key is on the machine (Connect… runs the first time); false when the user backed out. */
  ready(deviceId: number): Promise<boolean>;
  /** A key-only connection (never asks). */
  connect(deviceId: number, signal: AbortSignal): Promise<SshConnection>;
  /** The machines' SFTP sessions (key-only, pinned host key). */
  sessions(): SyncSessions;
}
