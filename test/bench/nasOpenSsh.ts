// The NAS benchmark's comparison with Debian's OpenSSH `sftp` client (nas.ts): the same sandbox SFTP
// server, the same session, a large file up and down and many small files up, the extension's path
// (core/nas upload, download, uploadFiles) against `sftp -b` (`put`, `get`, `put -r`). Ratios are printed,
// never judged. Sizes: COMPUTE_TOOLKIT_NAS_OPENSSH_MIB (default 1024, the 1 GiB) and
// COMPUTE_TOOLKIT_NAS_OPENSSH_FILES (default 2,000 files of 4 KiB).

import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { download, upload, uploadFiles, type NasSessions } from '../../src/core/nas';
import { runOpenSshSftp, type SftpLogin } from '../helpers/openSshSftp';

const MIB = 1024 * 1024;
const SMALL_BYTES = 4 * 1024;
/** Only a hang ends a batch early: 1 GiB through pure-JS crypto on a loaded machine takes long. */
const DEADLINE_MS = 3 * 3_600_000;

export interface OpenSshComparison {
  login: () => Promise<SftpLogin>;
  sessions: NasSessions;
  storageId: number;
  work: string;
  makeFile: (path: string, bytes: number) => Promise<void>;
  timed: (run: () => Promise<unknown>) => Promise<number>;
}

export async function compareWithOpenSsh(options: OpenSshComparison): Promise<void> {
  const { login, sessions, storageId, work, makeFile, timed } = options;
  const sizeMiB = Number(process.env.COMPUTE_TOOLKIT_NAS_OPENSSH_MIB ?? 1024);
  const count = Number(process.env.COMPUTE_TOOLKIT_NAS_OPENSSH_FILES ?? 2000);
  const sftp = async (commands: string[]): Promise<number> => (await runOpenSshSftp(await login(), commands, { work, deadlineMs: DEADLINE_MS })).ms;
  console.log(`  vs OpenSSH sftp (${sizeMiB} MiB file, COMPUTE_TOOLKIT_NAS_OPENSSH_MIB; ${count} files, COMPUTE_TOOLKIT_NAS_OPENSSH_FILES); ratio = OpenSSH's time / ours (> 1: ours faster)`);

  const local = join(work, 'openssh-big.bin');
  await makeFile(local, sizeMiB * MIB);
  const oursUp = await timed(() => upload(sessions, storageId, local, '/ssh-cmp-ours.bin', { policy: 'overwrite' }));
  const sshUp = await sftp([`put ${local} /ssh-cmp-openssh.bin`]);
  const oursDown = await timed(() => download(sessions, storageId, '/ssh-cmp-ours.bin', join(work, 'ssh-cmp-ours-back.bin'), { policy: 'overwrite' }));
  const sshDown = await sftp([`get /ssh-cmp-openssh.bin ${join(work, 'ssh-cmp-openssh-back.bin')}`]);
  const rate = (ms: number): string => `${(sizeMiB / (ms / 1000)).toFixed(1)} MiB/s`;
  console.log(`    ${sizeMiB} MiB upload   ours ${rate(oursUp)}  sftp put ${rate(sshUp)}  ratio ${(sshUp / oursUp).toFixed(2)}×`);
  console.log(`    ${sizeMiB} MiB download ours ${rate(oursDown)}  sftp get ${rate(sshDown)}  ratio ${(sshDown / oursDown).toFixed(2)}×`);

  const folder = join(work, 'ssh-cmp-small');
  await mkdir(folder);
  const files: { local: string; remote: string; size: number; mtimeMs: number }[] = [];
  for (let index = 0; index < count; index++) {
    const name = `f${String(index).padStart(5, '0')}.txt`;
    await writeFile(join(folder, name), randomBytes(SMALL_BYTES));
    files.push({ local: join(folder, name), remote: `/ssh-cmp-small-ours/${name}`, size: SMALL_BYTES, mtimeMs: Date.now() });
  }
  const ours = await timed(() => uploadFiles(sessions, storageId, files, { policy: 'overwrite' }));
  const ssh = await sftp([`put -r ${folder} /ssh-cmp-small-openssh`]);
  console.log(`    ${count} files of ${SMALL_BYTES / 1024} KiB up: ours ${(ours / 1000).toFixed(1)} s  sftp put -r ${(ssh / 1000).toFixed(1)} s  ratio ${(ssh / ours).toFixed(2)}×`);
}
