// The NAS benchmark's comparison with Debian's OpenSSH `sftp` client (nas.ts): the same sandbox SFTP server,
// the same session, one large file up and down and 2,000 small files up, the extension's path against
// `sftp -b`. The session password reaches `sftp` through SSH_ASKPASS (a script reading it from the
// environment), never on a command line. Ratios are printed, never judged.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uploadFiles, type NasSessions } from '../../src/core/nas';

const SMALL_FILES = 2_000;
const SMALL_BYTES = 4 * 1024;

export interface SessionInfo {
  sftp_url: string | null;
  username: string | null;
  password: string | null;
}

/** Runs `sftp -b <batch>` against the session; resolves with its time in ms. */
async function openSshBatch(info: SessionInfo, work: string, commands: string[]): Promise<number> {
  const [host, port] = (info.sftp_url ?? '').split(':');
  const batch = join(work, `batch-${randomBytes(4).toString('hex')}.txt`);
  await writeFile(batch, `${commands.join('\n')}\n`);
  const askpass = join(work, 'askpass.sh');
  await writeFile(askpass, '#!/bin/sh\nprintf "%s\\n" "$BENCH_SFTP_PASSWORD"\n');
  await chmod(askpass, 0o700);
  // `-b` turns on BatchMode, which forbids password prompts: the first value of an option wins, so ours comes first.
  const args = ['-o', 'BatchMode=no', '-b', batch, '-P', port ?? '22', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'PubkeyAuthentication=no', '-o', 'PreferredAuthentications=password,keyboard-interactive', '-o', 'LogLevel=ERROR', `${info.username ?? ''}@${host ?? ''}`];
  const env = { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: process.env.DISPLAY ?? ':0', BENCH_SFTP_PASSWORD: info.password ?? '' };
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('sftp', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sftp exited ${code}: ${stderr.slice(0, 500)}`))));
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Prints the extension's path against OpenSSH `sftp`: the large file (`oursUp` / `oursDown` measured by the
 * caller on the same file), then 2,000 small files uploaded each way.
 */
export async function compareWithOpenSsh(
  options: { obtain: () => Promise<SessionInfo>; sessions: NasSessions; storageId: number; local: string; work: string; bytes: number; oursUp: number; oursDown: number },
): Promise<void> {
  const { obtain, sessions, storageId, local, work, bytes, oursUp, oursDown } = options;
  // A session's password is good until the next one is obtained (the extension's path obtains its own).
  const sshUp = await openSshBatch(await obtain(), work, [`put ${local} /openssh.bin`]);
  const sshDown = await openSshBatch(await obtain(), work, [`get /openssh.bin ${join(work, 'openssh-back.bin')}`]);
  const mib = bytes / (1024 * 1024);
  const rate = (ms: number): string => `${(mib / (ms / 1000)).toFixed(0)} MiB/s`;
  console.log(`  vs OpenSSH sftp, ${mib} MiB: upload ours ${rate(oursUp)} / sftp ${rate(sshUp)} = ${(sshUp / oursUp).toFixed(2)}× of OpenSSH's throughput; download ${rate(oursDown)} / ${rate(sshDown)} = ${(sshDown / oursDown).toFixed(2)}×`);

  const folder = join(work, 'small');
  await mkdir(folder);
  const files = [];
  for (let index = 0; index < SMALL_FILES; index++) {
    const name = `f${String(index).padStart(4, '0')}.txt`;
    await writeFile(join(folder, name), randomBytes(SMALL_BYTES));
    files.push({ local: join(folder, name), remote: `/small-ours/${name}`, size: SMALL_BYTES, mtimeMs: Date.now() });
  }
  const started = process.hrtime.bigint();
  await uploadFiles(sessions, storageId, files, { policy: 'overwrite' });
  const ours = Number(process.hrtime.bigint() - started) / 1e6;
  const ssh = await openSshBatch(await obtain(), work, ['mkdir /small-ssh', `lcd ${folder}`, 'cd /small-ssh', 'mput *']);
  console.log(`  vs OpenSSH sftp, ${SMALL_FILES.toLocaleString('en')} files of ${SMALL_BYTES / 1024} KiB up: ours ${(ours / 1000).toFixed(1)} s, sftp ${(ssh / 1000).toFixed(1)} s = ${(ssh / ours).toFixed(2)}× of OpenSSH's speed`);
}
