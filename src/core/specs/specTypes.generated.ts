// Generated from schemas/compute-spec.schema.json by test/unit/specs/specTypesFile.ts (docs/shapes.md).
// Do not edit: change the schema, then `npm run compile-tests && node out/test/unit/specs/specTypesFile.js --write`.

/** A reference to a secret: {"secret": "name"} (SecretStorage) or {"env": "NAME"} (environment variable). Secrets are never written inline. */
export type SecretRef = { secret: string } | { env: string };

/** Environment variables, NAME → value. A value is a string, or a secret reference {"secret": "name"} / {"env": "NAME"}. */
export type EnvMap = Record<string, string | SecretRef>;

/** The GPU resource, by model and count in a region; Plan and Deploy look it up in a fresh resource search (no resource ids in the file). */
export type ResourceSelector = {
  /** GPU model as the resource search names it (gpu_name), e.g. "4090", "H20". */
  gpu: string;
  /** GPUs per node (gpu_count). */
  gpuCount: number;
  /** Region tag (e.g. "beijing-jxq-p1") or name (e.g. "北京一区"). */
  region: string;
  /** Optional: the exact device_name, when several devices share the GPU model and count. */
  device?: string;
  /** Optional: node memory in Mi, to pick between devices with the same GPUs (e.g. 64512). */
  memoryMi?: number;
  /** Optional: CPU cores per node, to pick between devices with the same GPUs. */
  cpuCores?: number;
};

export type Mount = {
  /** The storage id (storage_id). */
  storageId: number;
  /** Mount path inside the container (target_dir), absolute. */
  targetDir: string;
};

export type NasMount = {
  /** The NAS volume id (nas_storage_config[].storage_id). The volume must be Active and in the task's region. */
  volumeId: number;
  /** Mount path inside the container (target_dir), absolute. */
  targetDir: string;
};

export type MountByName = {
  /** A volume declared at the top of the job. */
  volume: string;
  targetDir: string;
};

/** A probe in the platform's own shape. */
export type Probe = {
  /** Probe on or off. */
  switch: boolean;
  probe_type: 'httpGet' | 'tcpSocket';
  /** HTTP path (httpGet), e.g. /live. */
  path: string;
  port: number;
  initial_delay_seconds: number;
  period_seconds: number;
  timeout_seconds: number;
  failure_threshold: number;
};

/** Liveness, startup and readiness probes (health_checks). */
export type HealthChecks = {
  liveness_probe?: Probe;
  startup_probe?: Probe;
  readiness_probe?: Probe;
};

export type TaskServiceSpec = {
  name: string;
  image: string;
  /** Container ports exposed publicly (remote_ports[].service_port). */
  ports: number[];
  env?: EnvMap;
  /** Start command line (start_script_v2.command); null or absent keeps the image's entrypoint. */
  command?: string | null;
  /** Start arguments (start_script_v2.args). */
  args?: string[];
  /** Shared memory (/dev/shm) in Mi (shared_mem_size), e.g. 8192 for 8 Gi. */
  sharedMemoryMi?: number;
  /** Object storage (JuiceFS) mounts (storage_config). */
  storage?: Mount[];
  /** Shared storage mounts (share_storage_config). */
  sharedStorage?: Mount[];
  /** NAS volume mounts (nas_storage_config). */
  nas?: NasMount[];
  healthChecks?: HealthChecks;
};

export type TaskSpec = {
  '$schema'?: string;
  kind: 'task';
  /** The id of the profile this spec targets (as in computeToolkit.profiles, e.g. sandbox-rsa). Plan, Deploy and Update refuse to run on another profile. A profile label is still read (deprecated: labels change with renames and the display language). */
  profile?: string;
  /** The task this file deployed (written by Deploy). With it, Plan compares against the live task and Update applies the file. */
  taskId?: number;
  /** Task name (task_name). */
  name: string;
  /** Node count (points); each node is billed at the resource's price per hour. */
  nodes: number;
  resource: ResourceSelector;
  /** Allow scheduling across regions (scheduler_strategy.mode = Unrestricted). */
  crossRegion?: boolean;
  /** Dedicated CPU (task_qos.class = Guaranteed). */
  dedicatedCpu?: boolean;
  /** How requests are spread over nodes (load_balance). */
  loadBalance?: {
    type: 'LeastConnection' | 'RoundRobin' | 'Random' | 'IpHash' | 'HeaderHash' | 'CookieHash';
    /** Header name for HeaderHash. */
    header?: string;
    /** Cookie name for CookieHash. */
    cookie?: string;
  };
  /** Elastic node count (dynamic_pod_strategy), in the platform's own field names. */
  autoscaling?: {
    switch?: boolean;
    min_workers?: number;
    max_workers?: number;
    /** Seconds. */
    idle_timeout?: number;
    /** Seconds. */
    execution_timeout?: number;
    benchmark?: Record<string, unknown>[];
  };
  /** Private registry login, sent on Deploy only (the platform cannot change it later). */
  registry?: {
    username: string;
    password: SecretRef;
  };
  /** Containers of each node. */
  services: TaskServiceSpec[];
};

export type JobServiceSpec = {
  name: string;
  image: string;
  /** Start command as a list (start_script.command), e.g. ["python", "train.py"]. */
  command?: string[];
  /** Start arguments (start_script.args). */
  args?: string[];
  env?: EnvMap;
  /** Ports exposed publicly (remote_ports). */
  ports?: number[];
  /** How the node is split among containers (resource_weight); each 1 by default. */
  weight?: {
    cpu?: number;
    memory?: number;
    gpu?: number;
  };
  storage?: Mount[];
  sharedStorage?: Mount[];
  nas?: NasMount[];
  /** Mounts of sharedMemoryVolumes (share_mem_config). */
  sharedMemoryMounts?: MountByName[];
  /** Mounts of sharedDiskVolumes (share_disk_config). */
  sharedDiskMounts?: MountByName[];
  healthChecks?: HealthChecks;
  registry?: {
    username: string;
    password?: SecretRef;
  };
};

export type JobSpec = {
  '$schema'?: string;
  kind: 'job';
  /** The id of the profile this spec targets (a label is still read, deprecated). */
  profile?: string;
  /** The job this file created (written by Deploy). */
  taskId?: number;
  /** Job name (task_name). */
  name: string;
  resource: ResourceSelector;
  /** Spot (sub_type Spot, cheaper, needs estimatedSeconds); false or absent = on demand. */
  spot?: boolean;
  /** Expected run time in seconds (job_support.estimated_exec_sec); required for spot. */
  estimatedSeconds?: number;
  /** Successful completions required (points). */
  completions: number;
  /** Pods run in parallel (job_support.parallelism). */
  parallelism: number;
  /** Hard wall-clock limit in seconds (job_support.timeout_sec). */
  timeoutSeconds: number;
  /** Failure handling (job_support.mod_param): backoffLimit + restartPolicy, or indexed mode. */
  retry?: {
    /** How many new pods may be created before the job fails. */
    backoffLimit?: number;
    restartPolicy?: 'OnFailure' | 'Never';
    /** Indexed mode: each parallel pod gets a fixed index. */
    indexed?: boolean;
    maxFailedIndex?: number;
  };
  /** Dedicated CPU (task_qos.class = Guaranteed). */
  dedicatedCpu?: boolean;
  /** Shared disk volumes, by name (share_disk_volumes). */
  sharedDiskVolumes?: string[];
  /** Shared memory volumes (share_mem_volumes). */
  sharedMemoryVolumes?: {
    name: string;
    /** Size limit in Mi (size_limit). */
    sizeMi: number;
  }[];
  services: JobServiceSpec[];
};
