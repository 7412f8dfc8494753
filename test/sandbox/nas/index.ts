// The NAS area of the sandbox: volumes, SFTP sessions with a real SFTP server on loopback, and S3
// transfers, plus their control actions. `volumeDirectory(storageId)` is the local directory holding a
// volume's files (the jobs sandbox runs job commands there).

import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxClock } from '../clock';
import type { Route } from '../compute/routes';
import { nasRoutes } from './routes';
import { SessionStore, type SessionTimings } from './sessions';
import type { HostileListing } from './hostileListing';
import { SandboxSftpServer, type SftpFault } from './sftpServer';
import { createFakeBucket, TransferStore, type FakeBucket, type TransferTimings } from './transfers';
import { VolumeStore, type Mount, type NasTimings } from './volumes';

export { volumeDirectory } from './volumes';
export type { SftpFault, SftpFaultKind } from './sftpServer';
export type { HostileEntry, HostileListing } from './hostileListing';

export interface NasSandboxOptions extends Partial<NasTimings>, Partial<TransferTimings> {
  /** How long obtain answers Pending (ms, default 300). */
  sftpPendingMs?: number;
  /** SFTP credential lifetime (ms, default 30 minutes). */
  sessionLifetimeMs?: number;
  /** Seed an Active, mounted volume with a few files (default true). */
  seed?: boolean;
}

/** What tests (in process) and the control endpoints (other processes) can do to the NAS area. */
export interface NasControl {
  /** The stand-in object store's endpoint, bucket and key pair (for transfer tests). */
  readonly bucket: Readonly<Omit<FakeBucket, 'objects'>>;
  volumeDirectory(storageId: number): string | undefined;
  /** Shortens (or lengthens) the lifetime of SFTP credentials issued from now on. */
  setSessionLifetime(ms: number): void;
  /** Ends the volume's current SFTP session now, as if `expire_at` had come. */
  expireSession(storageId: number): boolean;
  injectSftpFault(fault: SftpFault): void;
  /** Limits each SFTP connection's upload speed (0: no limit). */
  throttleUploads(bytesPerSecond: number): void;
  /** The SFTP server lies in its listings from now on (hostileListing.ts); `clearHostileListings` ends it. */
  addHostileListing(listing: HostileListing): void;
  clearHostileListings(): void;
  /** While held, no volume leaves Creating, Expanding or Deleting (a check that must see one holds it). */
  holdVolumePhases(held: boolean): void;
  /** How long S3 transfers created from now on run (a check that must see one Running holds it longer). */
  setTransferRunningMs(ms: number): void;
  /** While held, S3 transfers not yet ended stay Running at half their bytes, and new ones start there (a check that must see one Running); released, they go on. */
  holdTransfers(held: boolean): void;
  /** SFTP logins refused so far (expired or wrong credentials). */
  readonly refusedLogins: number;
  mount(storageId: number, mount: Mount): void;
  unmount(storageId: number, instanceId: number): void;
  failVolume(storageId: number, code: string, message: string): void;
  /** A task body's NAS mounts against the platform's rules (Active, same region, absolute target_dir). */
  checkTaskMounts(regionName: string, services: readonly { nas_storage_config?: { storage_id: number; target_dir: string }[] | null }[]): void;
}

export interface NasSandbox extends NasControl {
  routes: Route[];
  close(): Promise<void>;
}

export function createNasSandbox(clock: SandboxClock, options: NasSandboxOptions = {}): NasSandbox {
  const root = mkdtempSync(join(tmpdir(), 'compute-sandbox-nas-'));
  const volumes = new VolumeStore(root, clock.realNow, clock.now, {
    creatingMs: options.creatingMs ?? 3000,
    expandingMs: options.expandingMs ?? 3000,
    deletingMs: options.deletingMs ?? 2000,
  });
  const sessionTimings: SessionTimings = { pendingMs: options.sftpPendingMs ?? 300, lifetimeMs: options.sessionLifetimeMs ?? 30 * 60_000 };
  const sessions = new SessionStore(clock.realNow, sessionTimings);
  const sftp = new SandboxSftpServer(sessions, volumes);
  const bucket = createFakeBucket();
  const transfers = new TransferStore(volumes, bucket, clock.realNow, clock.now, {
    queuingMs: options.queuingMs ?? 1000,
    pendingMs: options.pendingMs ?? 1000,
    runningMs: options.runningMs ?? 20_000,
  });
  if (options.seed ?? true) seedVolume(volumes);
  const { objects: _objects, ...bucketInfo } = bucket;

  return {
    routes: nasRoutes(volumes, sessions, sftp, transfers),
    bucket: bucketInfo,
    volumeDirectory: (id) => volumes.get(id)?.directory,
    setSessionLifetime(ms) {
      if (!Number.isFinite(ms) || ms < 1000) throw new RangeError('lifetimeMs must be at least 1000');
      sessionTimings.lifetimeMs = ms;
    },
    expireSession(storageId) {
      const session = sessions.current(storageId);
      if (!session) return false;
      sessions.expire(session);
      return true;
    },
    injectSftpFault: (fault) => sftp.faults.push(fault),
    throttleUploads(bytesPerSecond) {
      if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) throw new RangeError('bytesPerSecond must be 0 or more');
      sftp.writeBytesPerSecond = bytesPerSecond;
    },
    addHostileListing: (listing) => sftp.hostile.add(listing),
    clearHostileListings: () => sftp.hostile.clear(),
    holdVolumePhases(held) {
      volumes.held = held;
    },
    setTransferRunningMs(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('runningMs must be 0 or more');
      transfers.timings.runningMs = ms;
    },
    holdTransfers: (held) => transfers.hold(held),
    get refusedLogins() {
      return sftp.refusedLogins;
    },
    mount: (id, mount) => volumes.mount(id, mount),
    unmount: (id, instanceId) => volumes.unmount(id, instanceId),
    failVolume: (id, code, message) => volumes.fail(id, code, message),
    checkTaskMounts: (regionName, services) => volumes.checkTaskMounts(regionName, services),
    async close() {
      sessions.close();
      await sftp.close();
      volumes.close();
    },
  };
}

/** One Active volume with a small project in it, mounted by a task, so a first start has something to show. */
function seedVolume(volumes: VolumeStore): void {
  const config = volumes.configs[0];
  if (!config) return;
  const record = volumes.create('datasets', config.id, 50 * 1024 ** 3);
  record.phaseEndsAt = 0;
  volumes.get(record.id);
  mkdirSync(join(record.directory, 'data'), { recursive: true });
  const files: [string[], string][] = [
    [['README.md'], '# datasets\n\nShared training data.\n'],
    [['data', 'train.csv'], 'id,label\n1,cat\n2,dog\n'],
  ];
  for (const [path, text] of files) {
    writeFileSync(join(record.directory, ...path), text);
    volumes.addUsage(record.id, Buffer.byteLength(text));
  }
  volumes.mount(record.id, { instance_id: 1229831, instance_name: 'llm-finetune', instance_type: 'deployment', mount_path: '/data' });
}
