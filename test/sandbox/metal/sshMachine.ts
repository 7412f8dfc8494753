// One rented machine's SSH server on 127.0.0.1 (ssh2's Server): password login with the platform's
// login, then key login against the real `~/.ssh/authorized_keys` in the machine's home (a temp folder),
// a host key that stays the machine's for its life (until a test rotates it), exec of real commands in
// the home (loopback only, bounded by a time limit), a shell with a real pty (util-linux `script`),
// SFTP jailed to the home, and direct-tcpip to loopback ports only. Ending the rental ends every session.
// The machine's `/etc/ssh` is `<home>/etc/ssh` (commands see that path in place of /etc/ssh/), its sshd
// reads the drop-ins of `sshd_config.d` on a reload (`systemctl`/`service`/`sudo` are stubs on PATH that
// record the reload): a drop-in's `PasswordAuthentication no` then refuses passwords, as a real sshd.
// Disposing the machine (its rental ended, the sandbox closed) ends every process it started, detached
// ones too (machineProcesses.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, utils, type Connection, type ServerChannel } from 'ssh2';
import { generateEd25519Pair } from '../../../src/core/ssh/keygen';
import { serveJailedSftp } from './sftpJail';
import { endMachineProcesses, machineProcesses, MACHINE_MARK } from './machineProcesses';

/** A command (or shell) running longer than this is killed: the sandbox stays bounded. */
export const MAX_COMMAND_MS = 120_000;

export interface MachineLogin {
  username: string;
  password: string;
}

export class SshMachine {
  readonly home: string;
  /** Every process the machine runs carries this in its environment (machineProcesses.ts). */
  private readonly mark = randomUUID();
  private server: Server | undefined;
  private port = 0;
  private hostKey: string;
  private readonly connections = new Set<Connection>();
  private readonly children = new Set<ChildProcess>();
  /** Logins refused so far, by method (tests check a refused password). */
  readonly refused = { password: 0, publickey: 0 };
  readonly accepted = { password: 0, publickey: 0 };
  /** The last window size a pty asked for (resize checks). */
  lastWindow: { rows: number; cols: number } | undefined;
  /** Whether password logins are still accepted (a test turns them off as sshd_config would). */
  passwordLogin = true;

  /** Stubs of the service tools (outside the home: not the user's files). */
  private readonly stubs: string;
  /** Whether the sshd config read at the last reload turns passwords off. */
  private passwordsOffByConfig = false;

  constructor(readonly login: MachineLogin) {
    this.home = mkdtempSync(join(tmpdir(), 'compute-sandbox-machine-'));
    mkdirSync(join(this.home, '.ssh'), { mode: 0o700 });
    mkdirSync(join(this.etcSsh, 'sshd_config.d'), { recursive: true });
    writeFileSync(join(this.etcSsh, 'sshd_config'), `Include ${this.etcSsh}/sshd_config.d/*.conf\nPasswordAuthentication yes\n`);
    this.stubs = mkdtempSync(join(tmpdir(), 'compute-sandbox-stubs-'));
    const reload = '#!/bin/sh\nprintf reload > "$SANDBOX_SSHD_RELOAD"\n';
    for (const name of ['systemctl', 'service']) writeFileSync(join(this.stubs, name), reload, { mode: 0o755 });
    writeFileSync(join(this.stubs, 'sudo'), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n', { mode: 0o755 });
    this.hostKey = newHostKey();
  }

  /** The machine's /etc/ssh. */
  get etcSsh(): string {
    return join(this.home, 'etc', 'ssh');
  }

  /** Reads the drop-ins as sshd does on a reload: the first PasswordAuthentication wins. */
  private reloadSshd(): void {
    const folder = join(this.etcSsh, 'sshd_config.d');
    let first: string | undefined;
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.conf')).sort()) {
      const match = /^\s*PasswordAuthentication\s+(\S+)/im.exec(readFileSync(join(folder, name), 'utf8').slice(0, 64 * 1024));
      if (match && first === undefined) first = match[1]?.toLowerCase();
    }
    this.passwordsOffByConfig = first === 'no';
  }

  /** Whether a password login would be accepted now. */
  get acceptsPasswords(): boolean {
    return this.passwordLogin && !this.passwordsOffByConfig;
  }

  get address(): { host: string; port: number } {
    return { host: '127.0.0.1', port: this.port };
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = new Server({ hostKeys: [this.hostKey] }, (connection) => this.accept(connection));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** A new host key on the same address (as a reinstalled machine, or a man in the middle, would show). */
  async rotateHostKey(): Promise<void> {
    this.hostKey = newHostKey();
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    for (const connection of this.connections) connection.end();
    this.connections.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The processes started on the machine that still run (its commands, and what they left running). */
  processes(): number[] {
    return machineProcesses(this.mark);
  }

  async dispose(): Promise<void> {
    await this.stop();
    await endMachineProcesses(this.mark);
    rmSync(this.home, { recursive: true, force: true });
    rmSync(this.stubs, { recursive: true, force: true });
  }

  private authorizedKeys(): ReturnType<typeof utils.parseKey>[] {
    let text = '';
    try {
      text = readFileSync(join(this.home, '.ssh', 'authorized_keys'), 'utf8').slice(0, 64 * 1024);
    } catch {
      return [];
    }
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => utils.parseKey(line))
      .filter((key) => !(key instanceof Error));
  }

  private accept(connection: Connection): void {
    this.connections.add(connection);
    connection.on('close', () => this.connections.delete(connection));
    connection.on('error', () => undefined);
    connection.on('authentication', (context) => {
      const methods = this.acceptsPasswords ? ['publickey', 'password'] : ['publickey'];
      if (context.username !== this.login.username) return context.reject(methods as never);
      if (context.method === 'password') {
        if (this.acceptsPasswords && context.password === this.login.password) {
          this.accepted.password++;
          return context.accept();
        }
        this.refused.password++;
        return context.reject(methods as never);
      }
      if (context.method === 'publickey') {
        const known = this.authorizedKeys().find((key) => !(key instanceof Error) && key.type === context.key.algo && key.getPublicSSH().equals(context.key.data));
        if (!known || known instanceof Error) {
          this.refused.publickey++;
          return context.reject(methods as never);
        }
        if (!context.signature) return context.accept(); // the client asks whether the key would do
        if (known.verify(context.blob as Buffer, context.signature, context.hashAlgo) !== true) {
          this.refused.publickey++;
          return context.reject(methods as never);
        }
        this.accepted.publickey++;
        return context.accept();
      }
      return context.reject(methods as never);
    });
    connection.on('ready', () => {
      connection.on('session', (acceptSession) => {
        const session = acceptSession();
        let pty: { rows: number; cols: number; term: string } | undefined;
        session.on('pty', (accept, _reject, info) => {
          pty = { rows: info.rows, cols: info.cols, term: info.term };
          this.lastWindow = { rows: info.rows, cols: info.cols };
          accept?.();
        });
        session.on('window-change', (accept, _reject, info) => {
          this.lastWindow = { rows: info.rows, cols: info.cols };
          accept?.();
        });
        session.on('env', (accept) => accept?.());
        session.on('exec', (accept, _reject, info) => this.run(accept(), info.command, pty));
        session.on('shell', (accept) => this.run(accept(), undefined, pty ?? { rows: 24, cols: 80, term: 'xterm' }));
        session.on('sftp', (accept) => serveJailedSftp(accept(), this.home));
      });
      connection.on('tcpip', (accept, reject, info) => {
        // Loopback only: the sandbox machine is this computer.
        if (!['127.0.0.1', 'localhost', '::1'].includes(info.destIP)) return reject();
        const socket = connect(info.destPort, '127.0.0.1');
        socket.once('error', () => reject());
        socket.once('connect', () => {
          const channel = accept();
          channel.pipe(socket).pipe(channel);
          channel.on('close', () => socket.destroy());
          socket.on('close', () => channel.close());
        });
      });
    });
  }

  /** A command (or, without one, a login shell) in the home; with a pty, inside `script` for a real terminal. */
  private run(channel: ServerChannel, command: string | undefined, pty: { rows: number; cols: number; term: string } | undefined): void {
    const reloadMark = join(this.stubs, `reload-${randomUUID()}`);
    const env = { PATH: `${this.stubs}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: this.home, USER: this.login.username, LANG: 'C.UTF-8', TERM: pty?.term ?? 'dumb', PS1: '$ ', SANDBOX_SSHD_RELOAD: reloadMark, [MACHINE_MARK]: this.mark };
    const shellCommand = command === undefined ? 'exec bash --norc --noprofile -i' : command.split('/etc/ssh/').join(`${this.etcSsh}/`);
    const child = pty
      ? spawn('script', ['-qfec', `stty rows ${pty.rows} cols ${pty.cols}; ${shellCommand}`, '/dev/null'], { cwd: this.home, env, stdio: 'pipe' })
      : spawn('bash', ['-c', shellCommand], { cwd: this.home, env, stdio: 'pipe' });
    this.children.add(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), MAX_COMMAND_MS);
    child.stdout.pipe(channel, { end: false });
    child.stderr.pipe(pty ? channel : channel.stderr, { end: false });
    channel.on('data', (chunk: Buffer) => child.stdin.write(chunk));
    channel.on('end', () => (pty ? undefined : child.stdin.end()));
    channel.on('close', () => child.kill('SIGKILL'));
    child.stdin.on('error', () => undefined);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (existsSync(reloadMark)) {
        rmSync(reloadMark, { force: true });
        this.reloadSshd();
      }
      this.children.delete(child);
      if (signal) channel.exit(signal.replace(/^SIG/, ''), false, '');
      else channel.exit(code ?? 0);
      channel.end();
    });
  }
}

function newHostKey(): string {
  return generateEd25519Pair().privateKey;
}
