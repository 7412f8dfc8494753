// A command's output on an SSH channel as lines (the group run tags them by rank; a machine run writes
// them to its terminal), and its exit code once the channel closes — or the connection drops.

import type { ClientChannel } from 'ssh2';
import type { SshConnection } from '../ssh/sshConnection';

/** The longest line passed on (the rest of a longer one is cut). */
export const MAX_LINE = 4000;

/** Resolves with the exit code (null: ended by a signal or a lost connection) once `channel` closes. */
export function followChannelLines(channel: ClientChannel, connection: Pick<SshConnection, 'onClose'>, onLine: (line: string) => void): Promise<number | null> {
  return new Promise<number | null>((resolve) => {
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
      for (const line of lines) if (!final || line !== '') onLine(line.slice(0, MAX_LINE));
    };
    channel.on('data', (chunk: Buffer) => {
      pending += decoder.decode(chunk, { stream: true });
      flush(false);
    });
    channel.on('exit', (exitCode: number | null) => {
      if (typeof exitCode === 'number') code = exitCode;
    });
    const stopWatching = connection.onClose(() => channel.emit('close'));
    channel.once('close', () => {
      stopWatching();
      pending += decoder.decode();
      flush(true);
      resolve(code);
    });
  });
}
