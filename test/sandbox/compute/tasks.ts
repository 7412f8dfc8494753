// Deployment tasks with the platform's lifecycle (docs/platform.md):
//   create → Pending → (pendingMs) → Running ⇄ pause/recover (recover goes through Pending again);
//   stop → End from Pending, Running or Paused. Pausing or stopping frees the nodes.
// Status is derived from real elapsed time on every read, so no timers run and moving the
// sandbox clock (tests simulating skew) never jumps a task.

import type {
  NodeStatus,
  ServiceSpec,
  TaskDetail,
  TaskNode,
  TaskResource,
  TaskStatus,
  TaskSummary,
} from '../../../src/core/compute/api';
import type { SandboxClock } from '../clock';
import { SandboxFailure, invalidParam } from './codes';
import { nodeEvents, type NodeEventView } from './nodeEvents';
import type { Paging } from './params';
import { readBackHealthChecks, NO_SETTINGS, type SandboxService, type TaskCreateInput, type TaskSettings } from './taskBody';
import { UsageLedger } from './usage';

/** The platform bills every 5 minutes; forecast_value is the next period at the current rate. */
const BILLING_PERIOD_SECONDS = 300;
const MAX_LOG_LINES = 200;
const FIRST_TASK_ID = 1229831;

type Phase = 'Active' | 'Paused' | 'End';

interface NodeRecord {
  pointId: number;
  name: string;
  region: string;
  regionName: string;
  /** Real ms when it runs; Pending before. */
  readyAt: number;
  createdAt: number;
  /** Container restarts (the control endpoint simulates crashes). */
  restarts: { at: number; reason: string }[];
  /** Set once the container keeps crashing: the node reads Failed. */
  failed?: boolean;
}

interface TaskRecord {
  id: number;
  name: string;
  createTime: string;
  points: number;
  resources: TaskResource[];
  services: (SandboxService & { service_id: number })[];
  settings: TaskSettings;
  pricePerSecond: number;
  phase: Phase;
  /** Real ms at which the current activation leaves Pending. */
  runningAt: number;
  nodes: NodeRecord[];
  /** Node-milliseconds of nodes already released (billing keeps them). */
  releasedNodeMs: number;
}

/**
 * What else a task's lifecycle drives: the model servers behind public URLs (../deployments). Told when
 * a task's nodes start and when they are released; asked for public URLs and container logs.
 */
export interface TaskServiceHost {
  activated(taskId: number, services: readonly ServiceSpec[], runningAt: number): void;
  deactivated(taskId: number): void;
  /** A URL for this port, null while it is not bound yet, undefined for the default `.invalid` one. */
  publicUrl(taskId: number, servicePort: number): string | null | undefined;
  logLines(taskId: number, service: ServiceSpec, nodeReadyAt: number, format: (realMs: number) => string): string[] | undefined;
}

export interface TaskListFilter {
  types?: string[];
  statuses?: string[];
  searchValue?: string;
}

export class TaskStore {
  private readonly tasks = new Map<number, TaskRecord>();
  private nextTaskId = FIRST_TASK_ID;
  private nextPointId = 880001;
  private nextServiceId = 52001;

  /** Every node's billed running time, for the billing queries. */
  readonly usage = new UsageLedger();

  constructor(
    private readonly clock: SandboxClock,
    private readonly pendingMs: number,
    private readonly serviceHost?: TaskServiceHost,
  ) {}

  /**
   * `startedAgoMs` backdates the task (seeded history); `pendingMs` overrides how long it stays
   * Pending (a seeded task that is still waiting for resources).
   */
  /** Checks a body's NAS mounts (the NAS area sets it: Active volume, same region); throws the platform's failure. */
  checkMounts: ((input: TaskCreateInput) => void) | undefined;
  /** How much longer a new task stays Pending to pull its images (the preheat area sets it: 0 once cached). */
  imagePullMs: ((input: TaskCreateInput) => number) | undefined;

  create(input: TaskCreateInput, options: { startedAgoMs?: number; pendingMs?: number } = {}): number {
    this.checkMounts?.(input);
    const now = this.clock.realNow() - (options.startedAgoMs ?? 0);
    const task: TaskRecord = {
      id: this.nextTaskId++,
      name: input.name,
      createTime: this.formatWallTime(now),
      points: input.points,
      resources: input.resources,
      services: input.services.map((service) => ({ ...service, service_id: this.nextServiceId++ })),
      settings: { ...(input.settings ?? NO_SETTINGS) },
      pricePerSecond: input.pricePerSecond,
      phase: 'Active',
      runningAt: now + (options.pendingMs ?? this.pendingMs) + (this.imagePullMs?.(input) ?? 0),
      nodes: [],
      releasedNodeMs: 0,
    };
    this.tasks.set(task.id, task);
    this.usage.nameTask({ taskId: task.id, name: task.name, type: 'Deployment' });
    this.addNodes(task, input.points, task.runningAt, now);
    if (task.phase === 'Active') this.serviceHost?.activated(task.id, task.services, task.runningAt);
    return task.id;
  }

  pause(taskId: number): void {
    const task = this.get(taskId);
    const status = this.status(task);
    if (status !== 'Running') throw transition(task, status, 'pause', 'Running');
    this.releaseNodes(task, task.nodes.length);
    task.phase = 'Paused';
    this.serviceHost?.deactivated(task.id);
  }

  recover(taskId: number): void {
    const task = this.get(taskId);
    const status = this.status(task);
    if (status !== 'Paused') throw transition(task, status, 'recover', 'Paused');
    task.phase = 'Active';
    task.runningAt = this.clock.realNow() + this.pendingMs;
    this.addNodes(task, task.points, task.runningAt, this.clock.realNow());
    this.serviceHost?.activated(task.id, task.services, task.runningAt);
  }

  stop(taskId: number): void {
    const task = this.get(taskId);
    const status = this.status(task);
    if (status === 'End') throw transition(task, status, 'stop', 'Pending, Running or Paused');
    this.releaseNodes(task, task.nodes.length);
    task.phase = 'End';
    this.serviceHost?.deactivated(task.id);
  }

  changePoints(taskId: number, points: number): void {
    const task = this.get(taskId);
    const status = this.status(task);
    if (status === 'End') throw transition(task, status, 'change points of', 'Pending, Running or Paused');
    task.points = points;
    if (task.phase !== 'Active') return; // a paused task starts with the new count on recover
    if (points < task.nodes.length) this.releaseNodes(task, task.nodes.length - points);
    const now = this.clock.realNow();
    if (points > task.nodes.length) this.addNodes(task, points - task.nodes.length, Math.max(task.runningAt, now + this.pendingMs), now);
  }

  /** One page of the matching tasks, newest first, and how many match in all. */
  list(filter: TaskListFilter, paging: Paging): { count: number; results: TaskSummary[] } {
    // Every sandbox task is a Deployment; a type filter without it matches nothing.
    if (filter.types && !filter.types.includes('Deployment')) return { count: 0, results: [] };
    const search = filter.searchValue?.toLowerCase();
    // Ids only grow and the map keeps insertion order, so newest first is the reverse: no sort.
    const found = [...this.tasks.values()]
      .reverse()
      .filter((task) => (!filter.statuses || filter.statuses.includes(this.status(task))) && (!search || task.name.toLowerCase().includes(search)));
    const start = (paging.page - 1) * paging.pageSize;
    // Summaries only for the page: a list of thousands costs one pass, not thousands of summaries.
    return { count: found.length, results: found.slice(start, start + paging.pageSize).map((task) => this.summary(task)) };
  }

  /** How many tasks the store holds (the seed endpoint reports it). */
  get size(): number {
    return this.tasks.size;
  }

  detail(taskId: number): TaskDetail {
    const task = this.get(taskId);
    const summary = this.summary(task);
    // The registry login is write-only: detail always answers it null (docs/sandbox-rules.md), never leaves it out.
    const detail: TaskDetail & { repository_username: null; repository_password: null } = {
      ...summary,
      repository_username: null,
      repository_password: null,
      // Detail returns the whole configuration, probes included, so it can be posted back to update.
      services: summary.services.map((service) => ({
        ...service,
        health_checks: readBackHealthChecks(service.health_checks),
        shared_mem_size: (service as SandboxService).shared_mem_size ?? null,
        storage_config: (service as SandboxService).storage_config ?? null,
        share_storage_config: (service as SandboxService).share_storage_config ?? null,
        nas_storage_config: (service as SandboxService).nas_storage_config ?? null,
      })),
      ...task.settings,
      task_type: 'Deployment',
      namespace: `ns-${task.id}`,
      billing_points: this.runningNodes(task).length,
    };
    return detail;
  }

  nodes(taskId: number, statuses?: string[]): TaskNode[] {
    const task = this.get(taskId);
    return task.nodes
      .map((node) => this.nodeView(task, node))
      .filter((node) => !statuses || statuses.includes(node.status));
  }

  nodeLog(taskId: number, pointId: number, serviceId: number): string {
    const task = this.get(taskId);
    const node = task.nodes.find((candidate) => candidate.pointId === pointId);
    if (!node) throw invalidParam('point_id', `task ${taskId} has no node ${pointId}`);
    const service = task.services.find((candidate) => candidate.service_id === serviceId);
    if (!service) throw invalidParam('service_id', `task ${taskId} has no service ${serviceId}`);
    return this.logLines(task, node, service).join('\n');
  }

  /**
   * Task update overwrites the whole configuration (docs/money.md). A task that is not
   * paused redeploys: its nodes are replaced and it is Pending again until the new ones run.
   */
  update(taskId: number, input: TaskCreateInput): void {
    const task = this.get(taskId);
    const status = this.status(task);
    if (status === 'End') throw transition(task, status, 'update', 'Pending, Running or Paused');
    this.checkMounts?.(input);
    const serviceIds = new Map(task.services.map((service) => [service.service_name, service.service_id]));
    task.name = input.name;
    task.points = input.points;
    task.resources = input.resources;
    task.services = input.services.map((service) => ({ ...service, service_id: serviceIds.get(service.service_name) ?? this.nextServiceId++ }));
    // A whole overwrite: settings the body leaves out are cleared, not kept.
    task.settings = { ...(input.settings ?? NO_SETTINGS) };
    task.pricePerSecond = input.pricePerSecond;
    this.usage.nameTask({ taskId: task.id, name: task.name, type: 'Deployment' });
    if (task.phase !== 'Active') return;
    this.releaseNodes(task, task.nodes.length);
    const now = this.clock.realNow();
    task.runningAt = now + this.pendingMs;
    this.addNodes(task, task.points, task.runningAt, now);
    this.serviceHost?.activated(task.id, task.services, task.runningAt);
  }

  /** Deletes one node; the platform schedules a replacement at once (a reschedule, not a scale-down). */
  deleteNode(pointId: number): void {
    const { task, node } = this.findNode(pointId);
    const status = this.status(task);
    if (status !== 'Running' && status !== 'Pending') throw transition(task, status, 'delete a node of', 'Running or Pending');
    task.nodes.splice(task.nodes.indexOf(node), 1);
    const now = this.clock.realNow();
    task.releasedNodeMs += this.runningMs(node);
    this.usage.stop(node.pointId, now);
    this.addNodes(task, 1, now + this.pendingMs, now);
  }

  events(pointId: number): NodeEventView[] {
    const { task, node } = this.findNode(pointId);
    return nodeEvents({ ...node, services: task.services }, this.clock.realNow(), (ms) => this.formatWallTime(ms));
  }

  /** Simulates a container crash (control endpoint): the restart count goes up; `fail` marks the node Failed. */
  crashNode(pointId: number, reason: string, fail: boolean): void {
    const { node } = this.findNode(pointId);
    node.restarts.push({ at: this.clock.realNow(), reason });
    if (fail) node.failed = true;
  }

  private findNode(pointId: number): { task: TaskRecord; node: NodeRecord } {
    for (const task of this.tasks.values()) {
      const node = task.nodes.find((candidate) => candidate.pointId === pointId);
      if (node) return { task, node };
    }
    throw invalidParam('point_id', `no live node with id ${pointId}`);
  }

  private get(taskId: number): TaskRecord {
    const task = this.tasks.get(taskId);
    if (!task) throw invalidParam('task_id', `no task with id ${taskId}`);
    return task;
  }

  private status(task: TaskRecord): TaskStatus {
    if (task.phase !== 'Active') return task.phase;
    return this.clock.realNow() < task.runningAt ? 'Pending' : 'Running';
  }

  private nodeStatus(node: NodeRecord): NodeStatus {
    if (node.failed) return 'Failed';
    return this.clock.realNow() < node.readyAt ? 'Pending' : 'Running';
  }

  private runningNodes(task: TaskRecord): NodeRecord[] {
    return task.nodes.filter((node) => this.nodeStatus(node) === 'Running');
  }

  private addNodes(task: TaskRecord, count: number, readyAt: number, createdAt: number): void {
    for (let index = 0; index < count; index++) {
      const resource = task.resources[(task.nodes.length + index) % task.resources.length];
      if (!resource) throw new Error(`task ${task.id} has no resources`);
      const pointId = this.nextPointId++;
      task.nodes.push({
        pointId,
        name: `deployment-${task.id}-${pointId.toString(36)}`,
        region: resource.resource.region,
        regionName: resource.region_name,
        readyAt,
        createdAt,
        restarts: [],
      });
      this.usage.start(task.id, pointId, task.pricePerSecond, readyAt);
    }
  }

  /** Releases the newest `count` nodes, keeping their running time for billing. */
  private releaseNodes(task: TaskRecord, count: number): void {
    const released = task.nodes.splice(task.nodes.length - count, count);
    task.releasedNodeMs += released.reduce((sum, node) => sum + this.runningMs(node), 0);
    const now = this.clock.realNow();
    for (const node of released) this.usage.stop(node.pointId, now);
  }

  private runningMs(node: NodeRecord): number {
    return Math.max(0, this.clock.realNow() - node.readyAt);
  }

  private summary(task: TaskRecord): TaskSummary {
    const status = this.status(task);
    const running = this.runningNodes(task).length;
    const nodeMs = task.releasedNodeMs + task.nodes.reduce((sum, node) => sum + this.runningMs(node), 0);
    return {
      task_id: task.id,
      task_name: task.name,
      status,
      points: task.points,
      runing_points: running,
      billing_value: Math.floor((nodeMs / 1000) * task.pricePerSecond),
      forecast_value: running * task.pricePerSecond * BILLING_PERIOD_SECONDS,
      create_time: task.createTime,
      resources: task.resources.map((resource) => ({ ...resource, resource: { ...resource.resource } })),
      services: task.services.map((service) => ({
        ...service,
        // Public URLs exist once the task runs; `.invalid` guarantees they never resolve.
        remote_ports: service.remote_ports.map((port) => ({
          service_port: port.service_port,
          url: status === 'Running' ? this.publicUrl(task.id, port.service_port) : null,
        })),
      })),
    };
  }

  private publicUrl(taskId: number, servicePort: number): string | null {
    const served = this.serviceHost?.publicUrl(taskId, servicePort);
    // `.invalid` guarantees the URL of a task that serves nothing here never resolves.
    return served === undefined ? `https://${taskId}-${servicePort}.sandbox.invalid` : served;
  }

  private nodeView(
    task: TaskRecord,
    node: NodeRecord,
  ): TaskNode & { containers: unknown[]; runing_time: number; describe_dto: { restart_count: number; last_restart_time: string | null } } {
    const first = task.resources[0]?.resource;
    const status = this.nodeStatus(node);
    const lastRestart = node.restarts.at(-1);
    return {
      point_id: node.pointId,
      name: node.name,
      status,
      region: node.region,
      region_name: node.regionName,
      // Typed strings by the docs (more §4.1): the sandbox answers their text, which a client must parse.
      resource: { gpu_name: first?.gpu_name ?? null, gpu_count: String(first?.gpu_count ?? 0), cpu_cores: String(first?.cpu_cores ?? 0) },
      containers: task.services.map((service, index) => ({
        service_name: service.service_name,
        name: service.service_name,
        image: service.service_image,
        gpu_limit: first?.gpu_count ?? 0,
        reason: index === 0 && lastRestart ? 'Error' : null,
        message: index === 0 && lastRestart ? lastRestart.reason : null,
        // Typed string in the docs (docs/sandbox-rules.md), so a client must parse it.
        exit_code: index === 0 && lastRestart ? '1' : null,
      })),
      runing_time: Math.floor(this.runningMs(node) / 1000),
      billing_value: Math.floor((this.runningMs(node) / 1000) * task.pricePerSecond),
      describe_dto: { restart_count: node.restarts.length, last_restart_time: lastRestart ? this.formatWallTime(lastRestart.at) : null },
    };
  }

  /** A deterministic container log: start-up lines, then one line per second of running time. */
  private logLines(task: TaskRecord, node: NodeRecord, service: ServiceSpec & { service_id: number }): string[] {
    const seconds = Math.floor(this.runningMs(node) / 1000);
    if (this.nodeStatus(node) === 'Pending') return [`${this.formatWallTime(this.clock.realNow())} Waiting for resources in ${node.regionName}…`];
    const served = this.serviceHost?.logLines(task.id, service, node.readyAt, (ms) => this.formatWallTime(ms));
    if (served) return served.slice(-MAX_LOG_LINES);
    const at = (second: number): string => this.formatWallTime(node.readyAt + second * 1000);
    const ports = service.remote_ports.map((port) => port.service_port).join(', ');
    const lines = [
      `${at(0)} Pulling image "${service.service_image}"`,
      `${at(0)} Successfully pulled image "${service.service_image}"`,
      `${at(0)} Started container ${service.service_name} on ${node.name}`,
      `${at(0)} 服务已启动, listening on ${ports || 'no ports'}`,
    ];
    const firstBeat = Math.max(1, seconds - MAX_LOG_LINES);
    for (let second = firstBeat; second <= seconds; second++) {
      lines.push(`${at(second)} GET /health 200 ${1 + (second % 7)}ms (heartbeat ${second})`);
    }
    return lines.slice(-MAX_LOG_LINES);
  }

  /** RFC 3339 in +08:00 like the platform, from a real-time instant shifted onto the sandbox clock. */
  private formatWallTime(realMs: number): string {
    const wallMs = realMs + this.clock.offsetMs;
    const shifted = new Date(wallMs + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '');
    return `${shifted}+08:00`;
  }
}

function transition(task: TaskRecord, status: TaskStatus, action: string, needs: string): SandboxFailure {
  return new SandboxFailure('C010', `cannot ${action} task ${task.id}: it is ${status}, needs ${needs}`);
}
