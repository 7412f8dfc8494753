// A FolderSyncer for tests that run in the sandbox's process: copies a folder into the sandbox NAS
// volume's local directory, sending only files whose size or mtime changed since the last sync (the
// record lives on the volume, like the NAS area's syncFolder), skipping .git and what a root
// .gitignore names (plain names and `dir/` only). The jobs contract test uses it so the job runner is
// tested apart from SFTP; the real sync (src/core/nas syncFolder over SFTP) has its own contract test,
// and the in-host Run on GPU test runs the two together.

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { FolderSyncer, SyncSummary } from '../../src/core/jobs/runOnGpu';

export function localVolumeSyncer(volumeDirectory: (storageId: number) => string | undefined): FolderSyncer {
  return {
    async sync({ storageId, localDir, remoteDir }): Promise<SyncSummary> {
      const volume = volumeDirectory(storageId);
      if (!volume) throw new Error(`no volume ${storageId}`);
      const target = join(volume, ...remoteDir.split('/').filter(Boolean));
      const manifestPath = join(target, '.compute', 'upload-manifest.json');
      const manifest: Record<string, [number, number]> = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, [number, number]>) : {};
      const ignored = new Set(['.git']);
      const gitignore = join(localDir, '.gitignore');
      if (existsSync(gitignore)) for (const line of readFileSync(gitignore, 'utf8').split('\n')) if (line.trim() && !line.startsWith('#')) ignored.add(line.trim().replace(/\/$/, ''));
      const summary: SyncSummary = { sent: 0, skipped: 0, bytes: 0 };
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          if (ignored.has(entry.name)) continue;
          const full = join(dir, entry.name);
          if (entry.isDirectory()) {
            walk(full);
            continue;
          }
          const key = relative(localDir, full).split(sep).join('/');
          const stat = statSync(full);
          const known = manifest[key];
          if (known && known[0] === stat.size && known[1] === stat.mtimeMs && existsSync(join(target, key))) {
            summary.skipped++;
            continue;
          }
          mkdirSync(dirname(join(target, key)), { recursive: true });
          copyFileSync(full, join(target, key));
          manifest[key] = [stat.size, stat.mtimeMs];
          summary.sent++;
          summary.bytes += stat.size;
        }
      };
      walk(localDir);
      mkdirSync(dirname(manifestPath), { recursive: true });
      writeFileSync(manifestPath, JSON.stringify(manifest));
      return summary;
    },
  };
}
