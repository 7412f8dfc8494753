// S3 ↔ NAS transfer jobs (S3 互传, docs/nas.md) against a stand-in object store: one bucket at one
// endpoint with an access key pair generated at start. Jobs progress over real time:
//   Queuing → Pending → Running (files and bytes grow, bps and remaining_seconds set) → Completed,
// or Error (S410) when the bucket or keys are wrong. A completed S3 → NAS job really writes the objects
// into the volume's directory; a NAS → S3 job copies the files under its folder into the bucket. Stop: Running only. Delete: any, repeatable. Retry: Error/Exception
// only; the old job becomes Deleted and a new one is created. AK/SK are never stored or returned.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { SandboxFailure, invalidParam } from '../compute/codes';
import type { Paging } from '../compute/params';
import { formatNasTime } from './platformTime';
import type { VolumeStore } from './volumes';

export const TRANSFER_STATUSES = ['Queuing', 'Pending', 'Running', 'Stopped', 'Completed', 'Error', 'Exception', 'Deleted'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export interface FakeBucket {
  supplier: string;
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** key → content, under the prefix "datasets/". */
  objects: Map<string, Buffer>;
}

export function createFakeBucket(): FakeBucket {
  const objects = new Map<string, Buffer>();
  for (let i = 1; i <= 12; i++) objects.set(`datasets/part-${String(i).padStart(3, '0')}.csv`, Buffer.from(`id,value\n${i},${i * i}\n`.repeat(200)));
  objects.set('datasets/README.md', Buffer.from('# sample dataset\n'));
  return {
    supplier: 'minio',
    endpoint: 's3.sandbox.local',
    bucket: 'ml-data',
    accessKey: `AKSBX${randomBytes(8).toString('hex').toUpperCase()}`,
    secretKey: randomBytes(24).toString('base64url'),
    objects,
  };
}

export interface TransferInput {
  storageId: number;
  name: string;
  direction: 1 | 2;
  supplier: string;
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  prefix: string;
  nasPath: string;
  overwritePolicy: 1 | 2 | 3;
  ignorePatterns: string[];
}

interface TransferRecord {
  id: number;
  input: Omit<TransferInput, 'accessKey' | 'secretKey'>;
  storageName: string;
  phase: 'Active' | 'Stopped' | 'Deleted';
  createdAt: number;
  /** How long it runs: the timing when it was created (a control changes it for later jobs only). */
  runningMs: number;
  /** Held (holdTransfers): it goes no further than Running at half its bytes until released. */
  held?: boolean;
  stoppedAt?: number;
  failure?: { code: string; message: string };
  files: { key: string; size: number }[];
  createTime: string;
  lastUpdateTime: string;
  written?: boolean;
}

export interface TransferTimings {
  queuingMs: number;
  pendingMs: number;
  runningMs: number;
}

let nextTransferId = 501;

export class TransferStore {
  private readonly records = new Map<number, TransferRecord>();
  private held = false;

  constructor(
    private readonly volumes: VolumeStore,
    readonly bucket: FakeBucket,
    private readonly now: () => number,
    private readonly wallNow: () => number,
    readonly timings: TransferTimings,
  ) {
    volumes.runningTransfers = (storageId) =>
      [...this.records.values()].filter((r) => r.input.storageId === storageId && ['Queuing', 'Pending', 'Running'].includes(this.status(r))).length;
  }

  check(input: { supplier: string; endpoint: string; ak: string; sk: string; bucket: string; prefix: string }): { pass: boolean; message: string | null } {
    return this.reach(input.endpoint, input.bucket, input.ak, input.sk);
  }

  /**
   * While held, jobs that have not ended go no further than Running with half their bytes, however long a
   * busy machine takes to look, and jobs created meanwhile start there; released, they carry on from there.
   */
  hold(held: boolean): void {
    const now = this.now();
    for (const record of this.records.values()) {
      if (record.phase !== 'Active' || record.failure) continue;
      if (held && !record.written && now - record.createdAt < this.heldAt(record)) record.held = true;
      if (!held && record.held) {
        record.createdAt = Math.max(record.createdAt, now - this.heldAt(record));
        record.held = false;
      }
    }
    this.held = held;
  }

  create(input: TransferInput): { id: number; status: 'Queuing' } {
    const volume = this.volumes.require(input.storageId, 'storage_id');
    if (volume.phase !== 'Active') throw new SandboxFailure('C010', `volume ${input.storageId} is ${volume.phase}: transfers need an Active volume`);
    const reach = this.reach(input.endpoint, input.bucket, input.accessKey, input.secretKey);
    const id = nextTransferId++;
    const time = formatNasTime(this.wallNow());
    const { accessKey: _ak, secretKey: _sk, ...kept } = input;
    const record: TransferRecord = {
      id,
      input: { ...kept, name: kept.name || `transfer-${id}` },
      storageName: volume.name,
      phase: 'Active',
      // Created while held: at its hold point at once, so the first look already sees what every later one does.
      createdAt: this.held ? this.now() - this.heldAt({ runningMs: this.timings.runningMs }) : this.now(),
      runningMs: this.timings.runningMs,
      held: this.held,
      files: reach.pass ? this.filesFor(input) : [],
      createTime: time,
      lastUpdateTime: time,
      ...(reach.pass ? {} : { failure: { code: 'S410', message: `S3 任务创建失败: ${reach.message ?? ''}` } }),
    };
    this.records.set(id, record);
    return { id, status: 'Queuing' };
  }

  retry(id: number, input: TransferInput): { id: number; status: 'Queuing' } {
    const record = this.require(id);
    const status = this.status(record);
    if (status !== 'Error' && status !== 'Exception') throw new SandboxFailure('C010', `transfer ${id} is ${status}: only Error or Exception jobs can be retried`);
    const created = this.create(input);
    record.phase = 'Deleted';
    return created;
  }

  stop(id: number): { id: number; status: 'Stopped' } {
    const record = this.require(id);
    const status = this.status(record);
    if (status !== 'Running') throw new SandboxFailure('C010', `transfer ${id} is ${status}: only a Running job can be stopped`);
    record.phase = 'Stopped';
    record.stoppedAt = this.now();
    record.lastUpdateTime = formatNasTime(this.wallNow());
    return { id, status: 'Stopped' };
  }

  delete(id: number): { id: number; status: 'Deleted' } {
    const record = this.records.get(id);
    if (!record) throw invalidParam('id', `no transfer ${id}`);
    record.phase = 'Deleted';
    return { id, status: 'Deleted' };
  }

  detail(id: number): Record<string, unknown> {
    const record = this.require(id);
    if (record.phase === 'Deleted') throw invalidParam('id', `transfer ${id} was deleted`);
    return this.view(record);
  }

  list(storageId: number | undefined, statuses: string[] | undefined, paging: Paging): Record<string, unknown> {
    const all = [...this.records.values()];
    const counts = { pending: 0, running: 0, stopped: 0, completed: 0, error: 0, exception: 0, queuing: 0 };
    for (const record of all) {
      const key = this.status(record).toLowerCase();
      if (key in counts) counts[key as keyof typeof counts]++;
    }
    const matches = all
      .filter((r) => (storageId === undefined || r.input.storageId === storageId) && (statuses ? statuses.includes(this.status(r)) : this.status(r) !== 'Deleted'))
      .sort((a, b) => b.id - a.id);
    const start = (paging.page - 1) * paging.pageSize;
    return { count: matches.length, status_counts: counts, results: matches.slice(start, start + paging.pageSize).map((r) => this.view(r)) };
  }

  status(record: TransferRecord): TransferStatus {
    if (record.phase === 'Deleted') return 'Deleted';
    if (record.phase === 'Stopped') return 'Stopped';
    const elapsed = this.elapsed(record, this.now());
    const { queuingMs, pendingMs } = this.timings;
    const { runningMs } = record;
    if (elapsed < queuingMs) return 'Queuing';
    if (elapsed < queuingMs + pendingMs) return 'Pending';
    if (record.failure) return 'Error';
    if (elapsed < queuingMs + pendingMs + runningMs) return 'Running';
    this.complete(record);
    return 'Completed';
  }

  private view(record: TransferRecord): Record<string, unknown> {
    const status = this.status(record);
    const totalBytes = record.files.reduce((sum, f) => sum + f.size, 0);
    const { queuingMs, pendingMs } = this.timings;
    const { runningMs } = record;
    const until = record.stoppedAt ?? this.now();
    const fraction = status === 'Completed' ? 1 : Math.max(0, Math.min(1, (this.elapsed(record, until) - queuingMs - pendingMs) / Math.max(1, runningMs)));
    const counted = status !== 'Queuing' && status !== 'Pending';
    const transferred = Math.floor(totalBytes * fraction);
    const running = status === 'Running';
    const bps = running ? Math.round(totalBytes / Math.max(0.001, runningMs / 1000)) : 0;
    return {
      id: record.id,
      name: record.input.name,
      ready_files: Math.floor(record.files.length * fraction),
      total_files: counted ? record.files.length : 0,
      transferred_bytes: transferred,
      total_bytes: counted ? totalBytes : 0,
      bps,
      remaining_seconds: running && bps > 0 ? Math.ceil((totalBytes - transferred) / bps) : 0,
      speed: running ? `${(bps / 1024 / 1024).toFixed(1)}MB/s` : '',
      status,
      direction: record.input.direction,
      overwrite_policy: record.input.overwritePolicy,
      create_time: record.createTime,
      last_update_time: record.lastUpdateTime,
      end_time: ['Completed', 'Stopped', 'Error'].includes(status) ? record.lastUpdateTime : null,
      storage_id: record.input.storageId,
      storage_name: record.storageName,
      s3_supplier: record.input.supplier,
      s3_endpoint: record.input.endpoint,
      s3_bucket: record.input.bucket,
      s3_prefix: record.input.prefix,
      nas_path: record.input.nasPath,
      ignore_patterns: [...record.input.ignorePatterns],
      error_code: status === 'Error' ? (record.failure?.code ?? null) : null,
      error_message: status === 'Error' ? (record.failure?.message ?? null) : null,
    };
  }

  /** Time since the job was created, as of `at`; a held job's stops at heldAt. */
  private elapsed(record: TransferRecord, at: number): number {
    const elapsed = at - record.createdAt;
    return record.held ? Math.min(elapsed, this.heldAt(record)) : elapsed;
  }

  /** Where a hold stops a job: Running, half its bytes moved. */
  private heldAt(record: Pick<TransferRecord, 'runningMs'>): number {
    return this.timings.queuingMs + this.timings.pendingMs + record.runningMs / 2;
  }

  private require(id: number): TransferRecord {
    const record = this.records.get(id);
    if (!record) throw invalidParam('id', `no transfer ${id}`);
    return record;
  }

  private reach(endpoint: string, bucket: string, ak: string, sk: string): { pass: boolean; message: string | null } {
    if (endpoint.toLowerCase() !== this.bucket.endpoint) return { pass: false, message: `cannot reach endpoint ${endpoint}` };
    if (bucket !== this.bucket.bucket) return { pass: false, message: `bucket "${bucket}" does not exist` };
    if (ak !== this.bucket.accessKey || sk !== this.bucket.secretKey) return { pass: false, message: 'access denied: the access key pair is not valid for this bucket' };
    return { pass: true, message: null };
  }

  private filesFor(input: TransferInput): { key: string; size: number }[] {
    const skip = (key: string): boolean => input.ignorePatterns.some((suffix) => suffix !== '' && key.endsWith(suffix));
    // NAS → object storage: the files under the volume's folder, keyed by their path below it.
    if (input.direction === 2) {
      const volume = this.volumes.get(input.storageId);
      if (!volume) return [];
      const base = join(volume.directory, ...posix.normalize(`/${input.nasPath}`).split('/').filter(Boolean));
      const files: { key: string; size: number }[] = [];
      const walk = (dir: string, relative: string): void => {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          return;
        }
        for (const name of names.sort()) {
          const path = join(dir, name);
          const info = statSync(path);
          const key = relative === '' ? name : `${relative}/${name}`;
          if (info.isDirectory()) walk(path, key);
          else if (info.isFile() && !skip(key)) files.push({ key, size: info.size });
        }
      };
      walk(base, '');
      return files;
    }
    return [...this.bucket.objects.entries()].filter(([key]) => key.startsWith(input.prefix) && !skip(key)).map(([key, body]) => ({ key, size: body.length }));
  }

  private complete(record: TransferRecord): void {
    if (record.written) return;
    record.written = true;
    const volume = this.volumes.get(record.input.storageId);
    if (!volume) return;
    if (record.input.direction === 2) {
      const base = join(volume.directory, ...posix.normalize(`/${record.input.nasPath}`).split('/').filter(Boolean));
      for (const file of record.files) {
        try {
          this.bucket.objects.set(`${record.input.prefix}${file.key}`, readFileSync(join(base, ...file.key.split('/'))));
        } catch {
          // Removed from the volume meanwhile: not copied.
        }
      }
      return;
    }
    for (const file of record.files) {
      const relative = posix.normalize(`/${record.input.nasPath}/${file.key.slice(record.input.prefix.length)}`);
      const target = join(volume.directory, ...relative.split('/').filter(Boolean));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, this.bucket.objects.get(file.key) ?? Buffer.alloc(0));
      this.volumes.addUsage(volume.id, file.size);
    }
  }
}
