// Debian's OpenSSH `sftp` client driven by a batch file against a sandbox SFTP server (contract tests and
// the NAS benchmark). The password reaches it through SSH_ASKPASS (a script reading it from the
// environment), never on a command line. A run that outlives its deadline is killed and fails naming the
// command it hung in, so a hang fails clearly instead of hanging the suite. A missing client fails too:
// it is never a reason to skip (.ci/run installs openssh-client).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SftpLogin {
  host: string;
  port: number;
  username: string;
  password: string;
}

export interface SftpRun {
  /** What the client printed: each batch command echoed as `sftp> …`, then its output. */
  stdout: string;
  ms: number;
}

/**
 * Runs `sftp -b` with these commands (each must succeed: the batch stops at the first failure, unless
 * the command starts with `-`). `work` is a private folder for the batch file and the askpass script.
 */
export async function runOpenSshSftp(login: SftpLogin, commands: readonly string[], options: { work: string; deadlineMs: number }): Promise<SftpRun> {
  const batch = join(options.work, `batch-${randomBytes(4).toString('hex')}.txt`);
  await writeFile(batch, `${commands.join('\n')}\n`);
  const askpass = join(options.work, 'askpass.sh');
  await writeFile(askpass, '#!/bin/sh\nprintf "%s\\n" "$SANDBOX_SFTP_PASSWORD"\n');
  await chmod(askpass, 0o700);
  // `-b` turns BatchMode on, which forbids password prompts: the first value of an option wins, so ours comes first.
  const args = ['-o', 'BatchMode=no', '-b', batch, '-F', '/dev/null', '-P', String(login.port)];
  for (const option of ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null', 'PubkeyAuthentication=no', 'PreferredAuthentications=password', 'NumberOfPasswordPrompts=1', 'LogLevel=ERROR']) args.push('-o', option);
  args.push(`${login.username}@${login.host}`);
  const { SSH_AUTH_SOCK: _agent, ...inherited } = process.env;
  const env = { ...inherited, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: process.env.DISPLAY ?? ':0', SANDBOX_SFTP_PASSWORD: login.password };
  const started = process.hrtime.bigint();
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn('sftp', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-1024 * 1024)));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4096)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const last = out.match(/^sftp> .*$/gm)?.pop() ?? '(before the first command)';
      reject(new Error(`OpenSSH sftp did not finish within ${options.deadlineMs / 1000} s and was killed; it hung in: ${last}\n${err.slice(-500)}`));
    }, options.deadlineMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error("OpenSSH's sftp client is not installed (Debian: apt-get install openssh-client)") : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`OpenSSH sftp exited ${code}: ${err.slice(-500)}\n${out.slice(-500)}`));
    });
  });
  return { stdout, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}
