// One command across a network group (docs/machines.md "Network groups"): the launcher (torchrun by
// default) started on every machine over its own SSH connection with its rank, the node count and the
// first machine's inner IP as the rendezvous address (launcher.ts); output comes back line by line
// tagged with the rank, in the order it arrives; stop() sends Ctrl+C to every machine and then closes
// each channel (its pty hangs the process up). Each machine's exit code is reported.

import type { ClientChannel } from 'ssh2';
import type { SshConnection } from '../ssh/sshConnection';
import { groupLaunches, shellWord, type GroupLaunch } from './launcher';

export interface GroupMachine {
  deviceId: number;
  innerIp: string;
  connection: SshConnection;
}

export interface GroupRunOptions {
  /** In rank order: the first machine is the rendezvous host. */
  machines: readonly GroupMachine[];
  launch: Omit<GroupLaunch, 'innerIps'>;
  /** The folder the command runs in on every machine (default: the login's home). */
  cwd?: string;
  onLine: (rank: number, line: string) => void;
}

export interface RankResult {
  rank: number;
  deviceId: number;
  /** null: ended by a signal or a lost connection. */
  code: number | null;
}

export interface GroupRun {
  done: Promise<RankResult[]>;
  stop(): void;
}

/** The longest line passed on (the rest of a longer one is cut). */
const MAX_LINE = 4000;

/** One rank's output as lines (tagged by the caller) and its exit code once its channel closes. */
function follow(channel: ClientChannel, rank: number, machine: GroupMachine, onLine: (rank: number, line: string) => void): Promise<RankResult> {
  return new Promise<RankResult>((resolve) => {
    const decoder = new TextDecoder('utf-8');
    let pending = '';
    let code: number | null = null;
    const flush = (final: boolean): void => {
      const lines = pending.split(/\r?\n/);
      pending = final ? '' : (lines.pop() ?? '');
      if (pending.length > MAX_LINE) {
        lines.push(pending.slice(0, MAX_LINE));
        pending = '';
      }
      for (const line of lines) if (!final || line !== '') onLine(rank, line.replace(/\r/g, '').slice(0, MAX_LINE));
    };
    channel.on('data', (chunk: Buffer) => {
      pending += decoder.decode(chunk, { stream: true });
      flush(false);
    });
    channel.on('exit', (exitCode: number | null) => {
      if (typeof exitCode === 'number') code = exitCode;
    });
    const stopWatching = machine.connection.onClose(() => channel.emit('close'));
    channel.once('close', () => {
      stopWatching();
      pending += decoder.decode();
      flush(true);
      resolve({ rank, deviceId: machine.deviceId, code });
    });
  });
}

export async function startGroupRun(options: GroupRunOptions): Promise<GroupRun> {
  const launches = groupLaunches({ ...options.launch, innerIps: options.machines.map((machine) => machine.innerIp) });
  const prefix = options.cwd !== undefined ? `cd ${shellWord(options.cwd)} && ` : '';
  const channels: ClientChannel[] = [];
  const results: Promise<RankResult>[] = [];
  try {
    for (const launch of launches) {
      const machine = options.machines[launch.rank] as GroupMachine;
      const channel = await machine.connection.execChannel(`${prefix}exec ${launch.shell}`, { rows: 40, cols: 200, term: 'dumb' });
      channels.push(channel);
      // Listened to at once: a quick rank may end while the next machine's channel is still opening.
      results.push(follow(channel, launch.rank, machine, options.onLine));
    }
  } catch (error) {
    for (const channel of channels) channel.close();
    throw error;
  }
  const done = Promise.all(results);
  let stopped = false;
  return {
    done,
    stop: () => {
      if (stopped) return;
      stopped = true;
      for (const channel of channels) channel.write('\x03');
      for (const channel of channels) channel.close();
    },
  };
}
