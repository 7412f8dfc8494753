// A local port forwarded to a port on a machine (docs/machines.md): a listener on 127.0.0.1 whose every
// connection is carried to `127.0.0.1:<remote port>` on the machine over SSH (direct-tcpip) on one
// connection opened for the forward. Closing it closes the listener, every carried socket and the
// connection; a dropped SSH connection closes the forward too (it says so through `onClosed`, with why).

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { ConfigError, coreText } from '../errors';
import type { SshConnection } from '../ssh/sshConnection';

export interface PortForward {
  deviceId: number;
  remotePort: number;
  localPort: number;
  close(): void;
}

const isPort = (port: number): boolean => Number.isInteger(port) && port >= 1 && port <= 65535;

/** Why a forward closed: `close()` was called, or its SSH connection went away by itself. */
export type ForwardEnd = 'closed' | 'lost';

/** Starts a forward; `localPort` 0 (or left out) picks a free port. */
export async function forwardPort(options: { deviceId: number; connection: SshConnection; remotePort: number; localPort?: number; onClosed?: (forward: PortForward, why: ForwardEnd) => void }): Promise<PortForward> {
  const { connection, remotePort } = options;
  if (!isPort(remotePort) || (options.localPort !== undefined && options.localPort !== 0 && !isPort(options.localPort))) throw new ConfigError(coreText('machines.badPort'));
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pause();
    connection.forwardOut('127.0.0.1', remotePort).then(
      (channel) => {
        channel.on('error', () => socket.destroy());
        socket.pipe(channel).pipe(socket);
        socket.on('close', () => channel.destroy());
        channel.on('close', () => socket.destroy());
        socket.resume();
      },
      () => socket.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.localPort ?? 0, '127.0.0.1', () => resolve());
  });
  let closed = false;
  const end = (why: ForwardEnd): void => {
    if (closed) return;
    closed = true;
    server.close();
    for (const socket of sockets) socket.destroy();
    connection.close();
    options.onClosed?.(forward, why);
  };
  const forward: PortForward = {
    deviceId: options.deviceId,
    remotePort,
    localPort: (server.address() as AddressInfo).port,
    close: () => end('closed'),
  };
  connection.onClose(() => end('lost'));
  return forward;
}
