// NAS volumes (集群存储) with the platform's lifecycle (docs/nas.md):
//   create → Creating → (creatingMs) → Active; expand (Active only, only bigger) → Expanding → Active;
//   delete → Deleting → (deletingMs) → gone (Deleted is never listed); Exception → delete → gone at once.
// Status is derived from real elapsed time on every read (no timers). Sizes are bytes. Each volume is a
// real directory that the sandbox's SFTP server serves and the jobs sandbox runs commands in.

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxFailure, invalidParam } from '../compute/codes';
import type { Paging } from '../compute/params';
import { formatNasTime } from './platformTime';
import { directoryBytes } from './usage';

export const VOLUME_STATUSES = ['Creating', 'Active', 'Expanding', 'Deleting', 'Exception'] as const;
export type VolumeStatus = (typeof VOLUME_STATUSES)[number] | 'Deleted';

const GIB = 1024 ** 3;
const TIB = 1024 * GIB;

export interface NasConfig {
  id: number;
  name: string;
  description: string | null;
  region: { tag: string; name: string };
  storage_class: string;
  storage_class_name: string;
  total_capacity: number;
  allocated_capacity: number;
  used_capacity: number;
  unit_price: number;
  display_unit_price: string;
  status: 'Available' | 'Unavailable';
}

export interface Mount {
  instance_id: number;
  instance_name: string;
  instance_type: string;
  mount_path: string;
}

interface VolumeRecord {
  id: number;
  name: string;
  config: NasConfig;
  totalSize: number;
  /** The size an expansion grows to once it finishes. */
  expandTo?: number;
  phase: 'Creating' | 'Active' | 'Expanding' | 'Deleting' | 'Exception';
  /** Real ms when the current transitional phase ends. */
  phaseEndsAt: number;
  instances: Mount[];
  createTime: string;
  lastUpdateTime: string;
  errorCode: string | null;
  errorMessage: string | null;
  directory: string;
  usedBytes: number | undefined;
  usageCheckedAt: number;
}

export interface NasTimings {
  creatingMs: number;
  expandingMs: number;
  deletingMs: number;
}

export const DICTIONARIES = {
  regions: [
    { tag: 'bj-001', name: '北京一区' },
    { tag: 'sh-001', name: '上海一区' },
  ],
  storage_classes: [
    { storage_class: 'nfs-standard', storage_class_name: '标准型' },
    { storage_class: 'nfs-premium', storage_class_name: '高性能型' },
  ],
};

function buildConfigs(): NasConfig[] {
  const config = (id: number, region: number, cls: number, unitPrice: number, display: string, status: NasConfig['status']): NasConfig => {
    const r = DICTIONARIES.regions[region] as { tag: string; name: string };
    const c = DICTIONARIES.storage_classes[cls] as { storage_class: string; storage_class_name: string };
    return {
      id,
      name: `${c.storage_class_name}-${r.name}`,
      description: cls === 0 ? '通用数据与代码' : '训练数据高吞吐',
      region: { ...r },
      storage_class: c.storage_class,
      storage_class_name: c.storage_class_name,
      total_capacity: 200 * TIB,
      allocated_capacity: 40 * TIB,
      used_capacity: 12 * TIB,
      unit_price: unitPrice,
      display_unit_price: display,
      status,
    };
  };
  return [
    config(101, 0, 0, 120, '0.36', 'Available'),
    config(102, 0, 1, 300, '0.90', 'Available'),
    config(103, 1, 0, 120, '0.36', 'Available'),
    config(104, 1, 1, 300, '0.90', 'Unavailable'),
  ];
}

/** Ids are unique across every sandbox in a process, so volumeDirectory() needs no sandbox handle. */
let nextVolumeId = 1001;
const directories = new Map<number, string>();

/** The local directory holding volume `storageId`'s files, while the volume exists. */
export function volumeDirectory(storageId: number | string): string | undefined {
  return directories.get(Number(storageId));
}

const USAGE_REFRESH_MS = 10_000;

export class VolumeStore {
  readonly configs = buildConfigs();
  private readonly volumes = new Map<number, VolumeRecord>();
  /** While true no transitional phase ends (a test that must see one holds it, then lets it go). */
  held = false;
  /** Volumes being deleted whose transfers must be refused meanwhile (set by the transfer store). */
  runningTransfers: (storageId: number) => number = () => 0;

  constructor(
    private readonly root: string,
    private readonly now: () => number,
    private readonly wallNow: () => number,
    readonly timings: NasTimings,
  ) {}

  create(name: string, configId: number, totalSize: number): VolumeRecord {
    const config = this.configs.find((c) => c.id === configId);
    if (!config) throw invalidParam('nas_config_id', `no creatable config ${configId} (see pre-create)`);
    if (config.status !== 'Available') throw invalidParam('nas_config_id', `config ${configId} is Unavailable`);
    if (config.total_capacity - config.allocated_capacity < totalSize) {
      throw invalidParam('total_size', `exceeds the free room of config ${configId}`);
    }
    config.allocated_capacity += totalSize;
    const id = nextVolumeId++;
    const directory = join(this.root, `volume-${id}`);
    mkdirSync(directory, { recursive: true });
    directories.set(id, directory);
    const time = formatNasTime(this.wallNow());
    const record: VolumeRecord = {
      id,
      name,
      config,
      totalSize,
      phase: 'Creating',
      phaseEndsAt: this.now() + this.timings.creatingMs,
      instances: [],
      createTime: time,
      lastUpdateTime: time,
      errorCode: null,
      errorMessage: null,
      directory,
      usedBytes: 0,
      usageCheckedAt: this.now(),
    };
    this.volumes.set(id, record);
    return record;
  }

  /** The record after applying elapsed time; undefined when deleted. */
  /**
   * A task's NAS mounts, as the platform's rules say (docs/nas.md, "Mounting in tasks"): each volume
   * exists, is Active, and is in the task's region (display name compared); target_dir is an absolute
   * path below the root. Throws the platform's invalid-parameter failure naming the field.
   */
  checkTaskMounts(regionName: string, services: readonly { nas_storage_config?: { storage_id: number; target_dir: string }[] | null }[]): void {
    services.forEach((service, serviceIndex) => {
      (service.nas_storage_config ?? []).forEach((mount, index) => {
        const path = `services[${serviceIndex}].nas_storage_config[${index}]`;
        const volume = this.get(mount.storage_id);
        if (!volume) throw invalidParam(`${path}.storage_id`, `no NAS volume ${mount.storage_id}`);
        if (volume.phase !== 'Active') throw invalidParam(`${path}.storage_id`, `NAS volume ${mount.storage_id} is ${volume.phase}: only an Active volume can be mounted`);
        if (volume.config.region.name !== regionName && volume.config.region.tag !== regionName) {
          throw invalidParam(`${path}.storage_id`, `NAS volume ${mount.storage_id} is in ${volume.config.region.name}, the task runs in ${regionName}`);
        }
        if (!/^\/[^\s\\]*[^/\s\\]$/.test(mount.target_dir) || mount.target_dir.split('/').some((segment) => segment === '.' || segment === '..')) {
          throw invalidParam(`${path}.target_dir`, 'must be an absolute path below the root');
        }
      });
    });
  }

  get(id: number): VolumeRecord | undefined {
    const record = this.volumes.get(id);
    if (!record) return undefined;
    this.advance(record);
    return this.volumes.get(id);
  }

  require(id: number, field = 'id'): VolumeRecord {
    const record = this.get(id);
    if (!record) throw invalidParam(field, `no volume ${id}`);
    return record;
  }

  all(): VolumeRecord[] {
    return [...this.volumes.keys()].map((id) => this.get(id)).filter((v): v is VolumeRecord => v !== undefined);
  }

  status(record: VolumeRecord): VolumeStatus {
    return record.phase;
  }

  expand(id: number, totalSize: number): VolumeRecord {
    const record = this.require(id);
    if (record.phase !== 'Active') throw new SandboxFailure('C010', `volume ${id} is ${record.phase}: only an Active volume can be expanded`);
    if (totalSize <= record.totalSize) {
      throw invalidParam('total_size', `must be larger than the current ${record.totalSize} bytes: volumes only grow`);
    }
    const growth = totalSize - record.totalSize;
    if (record.config.total_capacity - record.config.allocated_capacity < growth) throw invalidParam('total_size', 'exceeds the free room of the volume\'s config');
    record.config.allocated_capacity += growth;
    record.expandTo = totalSize;
    this.enter(record, 'Expanding', this.timings.expandingMs);
    return record;
  }

  rename(id: number, name: string): VolumeRecord {
    const record = this.require(id);
    record.name = name;
    record.lastUpdateTime = formatNasTime(this.wallNow());
    return record;
  }

  delete(id: number, force: boolean): { record: VolumeRecord; status: VolumeStatus } {
    const record = this.require(id);
    if (record.phase === 'Exception') {
      this.remove(record);
      return { record, status: 'Deleted' };
    }
    if (record.phase !== 'Active') throw new SandboxFailure('C010', `volume ${id} is ${record.phase}: only an Active or Exception volume can be deleted`);
    if (!force) {
      if (record.instances.length > 0) {
        const names = record.instances.map((m) => m.instance_name).join(', ');
        throw new SandboxFailure('C010', `volume ${id} is mounted by ${record.instances.length} instance(s) (${names}): unmount it first or delete with force`);
      }
      const transfers = this.runningTransfers(id);
      if (transfers > 0) throw new SandboxFailure('C010', `volume ${id} has ${transfers} running transfer(s): stop them first or delete with force`);
    }
    record.instances = [];
    this.enter(record, 'Deleting', this.timings.deletingMs);
    return { record, status: 'Deleting' };
  }

  mount(id: number, mount: Mount): void {
    this.require(id, 'storage_id').instances.push(mount);
  }

  unmount(id: number, instanceId: number): void {
    const record = this.require(id, 'storage_id');
    record.instances = record.instances.filter((m) => m.instance_id !== instanceId);
  }

  fail(id: number, code: string, message: string): void {
    const record = this.require(id, 'storage_id');
    record.phase = 'Exception';
    record.errorCode = code;
    record.errorMessage = message;
    record.lastUpdateTime = formatNasTime(this.wallNow());
  }

  /** Bytes used, kept current by the SFTP server; re-walked now and then for writes from elsewhere. */
  usedBytes(record: VolumeRecord): number {
    if (record.phase === 'Creating' || record.phase === 'Deleting' || record.usedBytes === undefined) return -1;
    if (this.now() - record.usageCheckedAt > USAGE_REFRESH_MS) {
      record.usageCheckedAt = this.now();
      // Never an unhandled rejection, whatever the walk meets (the folder may go while it runs).
      directoryBytes(record.directory).then(
        (bytes) => {
          record.usedBytes = bytes;
        },
        () => undefined,
      );
    }
    return record.usedBytes;
  }

  /** The SFTP server reports growth (positive) and removal (negative). */
  addUsage(id: number, delta: number): void {
    const record = this.volumes.get(id);
    if (record && record.usedBytes !== undefined) record.usedBytes = Math.max(0, record.usedBytes + delta);
  }

  view(record: VolumeRecord): Record<string, unknown> {
    return {
      storage_id: record.id,
      name: record.name,
      region: { ...record.config.region },
      storage_class: record.config.storage_class,
      storage_class_name: record.config.storage_class_name,
      unit_price: record.config.unit_price,
      display_unit_price: record.config.display_unit_price,
      total_size: record.totalSize,
      used_size: this.usedBytes(record),
      status: record.phase,
      namespace: `nas-tenant-${record.id % 97}`,
      claim_name: `pvc-${record.id}`,
      instance_count: record.instances.length,
      instances: record.instances.map((m) => ({ ...m })),
      create_time: record.createTime,
      last_update_time: record.lastUpdateTime,
      error_code: record.errorCode,
      error_message: record.errorMessage,
    };
  }

  list(filter: { regions?: string[]; classes?: string[]; statuses?: string[]; ids?: number[] }, paging: Paging): { count: number; results: unknown[] } {
    const matches = this.all().filter(
      (v) =>
        (!filter.regions || filter.regions.includes(v.config.region.tag)) &&
        (!filter.classes || filter.classes.includes(v.config.storage_class)) &&
        (!filter.statuses || filter.statuses.includes(v.phase)) &&
        (!filter.ids || filter.ids.includes(v.id)),
    );
    matches.sort((a, b) => b.id - a.id);
    const start = (paging.page - 1) * paging.pageSize;
    return { count: matches.length, results: matches.slice(start, start + paging.pageSize).map((v) => this.view(v)) };
  }

  summary(): Record<string, unknown> {
    const counted = this.all().filter((v) => v.phase === 'Creating' || v.phase === 'Active' || v.phase === 'Expanding');
    const used = counted.map((v) => this.usedBytes(v));
    const totalBytes = counted.reduce((sum, v) => sum + v.totalSize, 0);
    return {
      volume_count: counted.length,
      total_size: totalBytes,
      used_size: used.some((u) => u < 0) ? -1 : used.reduce((sum, u) => sum + u, 0),
      estimated_price: counted.length === 0 ? null : Math.round(counted.reduce((sum, v) => sum + v.config.unit_price, 0) / counted.length),
      coin_sum_slice: Math.round(counted.reduce((sum, v) => sum + (v.totalSize / GIB) * v.config.unit_price, 0)),
    };
  }

  close(): void {
    for (const record of this.volumes.values()) directories.delete(record.id);
    rmSync(this.root, { recursive: true, force: true });
  }

  private enter(record: VolumeRecord, phase: VolumeRecord['phase'], durationMs: number): void {
    record.phase = phase;
    record.phaseEndsAt = this.now() + durationMs;
    record.lastUpdateTime = formatNasTime(this.wallNow());
    this.advance(record);
  }

  private advance(record: VolumeRecord): void {
    if (this.held || this.now() < record.phaseEndsAt) return;
    if (record.phase === 'Creating') {
      record.phase = 'Active';
      record.lastUpdateTime = formatNasTime(this.wallNow());
    } else if (record.phase === 'Expanding') {
      record.phase = 'Active';
      record.totalSize = record.expandTo ?? record.totalSize;
      delete record.expandTo;
      record.lastUpdateTime = formatNasTime(this.wallNow());
    } else if (record.phase === 'Deleting') {
      this.remove(record);
    }
  }

  private remove(record: VolumeRecord): void {
    this.volumes.delete(record.id);
    directories.delete(record.id);
    record.config.allocated_capacity -= record.totalSize;
    rmSync(record.directory, { recursive: true, force: true });
  }
}

export type { VolumeRecord };
