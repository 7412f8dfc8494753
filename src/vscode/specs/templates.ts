// "New Spec from Template…": the create wizard's image templates as spec files, on the cheapest
// in-stock resource when the platform answers (a placeholder resource otherwise).

import type { Region } from '../../core/compute/api';
import type { TaskSpec } from '../../core/specs/types';
import { serviceNameFor, type ImageTemplate } from '../tasks/index';

export function specFromTemplate(template: ImageTemplate, offer: { device: { gpu_name: string; gpu_count: number }; region: Region } | undefined, profileId: string | undefined): TaskSpec {
  const ports = template.ports
    .split(/[,\s]+/)
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
  return {
    kind: 'task',
    ...(profileId ? { profile: profileId } : {}),
    name: `${template.id}-1`,
    nodes: 1,
    resource: offer ? { gpu: offer.device.gpu_name, gpuCount: offer.device.gpu_count, region: offer.region.region } : { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
    services: [
      {
        name: serviceNameFor(template.image),
        image: template.image,
        ports,
        ...(template.startCommand ? { command: template.startCommand } : {}),
        env: {},
      },
    ],
  };
}
