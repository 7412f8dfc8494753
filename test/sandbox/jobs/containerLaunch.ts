// How a job's container becomes a local process (podProcess.ts runs it): its argv with each NAS
// mount's target_dir mapped to the volume's directory on this machine, and an environment built from
// scratch (PATH, HOME, LANG and the job's env; nothing else of the sandbox's own, which may hold secrets).

import type { JobService } from '../../../src/core/jobs/operations';
import { invalidParam } from '../compute/codes';
import type { JobRecord, MountRecord, PodRecord } from './records';

/** Name of the index variable in indexed mode (the docs do not name it; Kubernetes' name). */
export const INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** Where a NAS volume's files are on this machine; undefined for a volume that does not exist. */
export type VolumeResolver = (storageId: number) => string | undefined;

/** command + args, with each mount's target_dir mapped to the volume's local directory. */
export function containerArgv(job: JobRecord, service: JobService): string[] {
  const argv = [...(service.start_script?.command ?? []), ...(service.start_script?.args ?? [])];
  return argv.map((arg) => job.mounts.reduce((text, mount) => text.split(mount.target).join(mount.local), arg));
}

export function containerEnv(job: JobRecord, pod: PodRecord, service: JobService): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? job.workDir, LANG: 'C.UTF-8' };
  if (process.env.PYENV_ROOT) env.PYENV_ROOT = process.env.PYENV_ROOT;
  for (const variable of service.env ?? []) {
    if (variable.value !== null) env[variable.name] = variable.value;
    else if (variable.value_from?.field_ref?.field_path === 'metadata.name') env[variable.name] = pod.name;
    else if (variable.value_from?.resource_field_ref) env[variable.name] = String(job.body.resources[0]?.resource.cpu_cores ?? 1);
  }
  if (pod.index !== null) env[INDEX_ENV] = String(pod.index);
  return env;
}

/** Every service's NAS mounts, longest target first (so /mnt/a/b maps before /mnt/a); C999 for an unknown volume. */
export function resolveMounts(services: readonly JobService[], volumeDirectory: VolumeResolver | undefined): MountRecord[] {
  const mounts: MountRecord[] = [];
  services.forEach((service, serviceIndex) => {
    (service.nas_storage_config ?? []).forEach((mount, index) => {
      const local = volumeDirectory ? volumeDirectory(mount.storage_id) : undefined;
      if (volumeDirectory && local === undefined) {
        throw invalidParam(`services[${serviceIndex}].nas_storage_config[${index}].storage_id`, `no Active NAS volume ${mount.storage_id}`);
      }
      if (local !== undefined) mounts.push({ target: mount.target_dir, local });
    });
  });
  return mounts.sort((a, b) => b.target.length - a.target.length);
}
