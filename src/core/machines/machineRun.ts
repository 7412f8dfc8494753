// Run on a rented machine (docs/machines.md "Run on a machine"): the folder sent over SFTP with the same
// sync as a volume's (core/nas/sync.ts: only what changed, the record kept on the machine), then the
// command run in it over SSH with a pty — so Ctrl+C reaches it and closing the channel hangs it up —
// its output line by line, and its exit code.

import type { ClientChannel } from 'ssh2';
import type { SyncSummary } from '../jobs/runOnGpu';
import { syncFolder, type SyncSessions } from '../nas/sync';
import type { SshConnection } from '../ssh/sshConnection';
import { followChannelLines } from './channelLines';
import { shellWord } from './launcher';

export interface MachineCommandOptions {
  connection: SshConnection;
  /** The folder under the login's home the command runs in (run.json's `machine.remoteDir`). */
  remoteDir: string;
  command: string;
  env: readonly { name: string; value: string }[];
  onLine: (line: string) => void;
  cols?: number;
}

export interface MachineCommand {
  /** The exit code; null when ended by a signal or a lost connection. */
  done: Promise<number | null>;
  /** Ctrl+C to the command's terminal. */
  interrupt(): void;
  /** Ctrl+C, then the channel closed (its pty hangs the command up). */
  stop(): void;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The remote shell line: into the run folder (under $HOME), the variables exported, then the command. */
export function machineCommandLine(remoteDir: string, env: readonly { name: string; value: string }[], command: string): string {
  const dir = remoteDir.split('/').filter((part) => part !== '' && part !== '.');
  if (dir.length === 0 || dir.includes('..')) throw new RangeError('The run folder must be a folder under the home.');
  const exports = env.map((entry) => {
    if (!ENV_NAME.test(entry.name)) throw new RangeError('Not a variable name.');
    return `export ${entry.name}=${shellWord(entry.value)} && `;
  });
  return `cd -- "$HOME"/${shellWord(dir.join('/'))} && ${exports.join('')}${command}`;
}

/** The run folder as the SFTP server names it: the login's home (its realpath of ".") joined with it. */
export function machineSyncDir(home: string, remoteDir: string): string {
  return `${home.replace(/\/+$/, '')}/${remoteDir}`;
}

/** Sends the changed files of `localDir` to `remoteDir` under the machine's home. */
export async function syncToMachine(sessions: SyncSessions, deviceId: number, localDir: string, remoteDir: string, signal?: AbortSignal): Promise<SyncSummary> {
  const home = await sessions.run(deviceId, (connection) => connection.realpath('.'), signal);
  const result = await syncFolder(sessions, { storageId: deviceId, localDir, remoteDir: machineSyncDir(home, remoteDir), ...(signal ? { signal } : {}) });
  return { sent: result.sent, skipped: result.skipped, bytes: result.bytes };
}

export async function startMachineCommand(options: MachineCommandOptions): Promise<MachineCommand> {
  const line = machineCommandLine(options.remoteDir, options.env, options.command);
  const channel: ClientChannel = await options.connection.execChannel(line, { rows: 40, cols: options.cols ?? 200, term: 'dumb' });
  const done = followChannelLines(channel, options.connection, options.onLine);
  let stopped = false;
  return {
    done,
    interrupt: () => {
      if (!stopped) channel.write('\x03');
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      channel.write('\x03');
      channel.close();
    },
  };
}
