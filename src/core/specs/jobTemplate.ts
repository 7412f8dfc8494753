// "New Spec from Template…" for a batch job: a Create Job… starting point (core/jobs/templates) as a
// job spec file, on the cheapest in-stock resource when the platform answers (a placeholder otherwise).
// Spot with a run-time estimate and a timeout, so Plan shows the cost at once.

import type { JobTemplate } from '../jobs/templates';
import type { JobSpec } from './types';

export function jobSpecFromTemplate(template: JobTemplate, offer: { device: { gpu_name: string; gpu_count: number }; region: { region: string } } | undefined, profileLabel: string | undefined): JobSpec {
  return {
    kind: 'job',
    ...(profileLabel ? { profile: profileLabel } : {}),
    name: `${template.id}-job`,
    resource: offer ? { gpu: offer.device.gpu_name, gpuCount: offer.device.gpu_count, region: offer.region.region } : { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
    spot: true,
    estimatedSeconds: 1800,
    completions: 1,
    parallelism: 1,
    timeoutSeconds: 3600,
    retry: { backoffLimit: 0, restartPolicy: 'Never' },
    services: [
      {
        name: template.id,
        image: template.image,
        // The job's command line, as Create Job… runs it (core/jobs/jobBody: /bin/sh -c).
        command: ['/bin/sh', '-c'],
        args: [template.command],
        env: Object.fromEntries(template.env.map((variable) => [variable.name, variable.value])),
      },
    ],
  };
}
