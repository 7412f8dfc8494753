// Platform errors that name a body field ("services[0].service_image: …") → the spec field they
// concern, so the editor can put the message on that line. The body ↔ spec names are the mapping
// of taskBody.ts / jobBody.ts.

const TOP: Record<string, string> = {
  task_name: 'name',
  points: 'nodes',
  resources: 'resource',
  scheduler_strategy: 'crossRegion',
  task_qos: 'dedicatedCpu',
  load_balance: 'loadBalance',
  dynamic_pod_strategy: 'autoscaling',
  repository_username: 'registry',
  repository_password: 'registry',
  services: 'services',
  job_support: 'timeoutSeconds',
  sub_type: 'spot',
  share_disk_volumes: 'sharedDiskVolumes',
  share_mem_volumes: 'sharedMemoryVolumes',
};

const SERVICE: Record<string, string> = {
  service_name: 'name',
  service_image: 'image',
  remote_ports: 'ports',
  env: 'env',
  shared_mem_size: 'sharedMemoryMi',
  start_script_v2: 'command',
  start_script: 'command',
  storage_config: 'storage',
  share_storage_config: 'sharedStorage',
  nas_storage_config: 'nas',
  health_checks: 'healthChecks',
  resource_weight: 'weight',
  share_mem_config: 'sharedMemoryMounts',
  share_disk_config: 'sharedDiskMounts',
};

/** The spec path (e.g. ['services', 0, 'image']) named by the first body field path in a message, if any. */
export function specPathFromMessage(message: string): (string | number)[] | undefined {
  const text = message.slice(0, 2000);
  const pattern = /\b([a-z_]+)(?:\[(\d+)\])?(?:\.([a-z_0-9]+))?/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [, top, index, child] = match;
    const mapped = TOP[top!];
    if (!mapped) continue;
    if (mapped === 'services' && index !== undefined) {
      const field = child ? SERVICE[child] : undefined;
      return field ? ['services', Number(index), field] : ['services', Number(index)];
    }
    return [mapped];
  }
  return undefined;
}
