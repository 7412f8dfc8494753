// Devices and a live task in the platform's shapes (platform reference §3.1, §3.3) for the spec tests.
import type { Device, TaskDetail } from '../../../src/core/compute/api';

export function region(tag: string, name: string, price: number, inventory: number, device = '4090'): Device['regions'][number] {
  return {
    region: tag,
    region_name: name,
    price,
    discount_price: price,
    inventory,
    mark: { resource: { device_name: device, region: tag, gpu_name: device.split(' ')[0]!, gpu_count: 1, gpu_memory: 24560, memory: 64512, cpu_cores: 16 }, mark: `mark-${device}-${tag}` },
  };
}

export const DEVICES: Device[] = [
  { device_name: '4090', gpu_name: '4090', gpu_memory: 24560, gpu_count: 1, memory: 64512, cpu_cores: 16, disk_size: 100, disk_type: 'SSD', regions: [region('beijing-jxq-p1', '北京一区', 466, 8), region('guangdong', '广东一区', 500, 0)] },
  { device_name: 'H20 x 8', gpu_name: 'H20', gpu_memory: 786432, gpu_count: 8, memory: 1572864, cpu_cores: 192, disk_size: 81920, disk_type: 'HDD', regions: [region('hebeif-1', '河北一区', 16416, 1, 'H20 x 8')] },
];

export function liveTask(overrides: Partial<TaskDetail> = {}): TaskDetail {
  const offer = DEVICES[0]!.regions[0]!;
  return {
    task_id: 1229831,
    task_name: 'demo-api',
    status: 'Running',
    points: 1,
    runing_points: 1,
    billing_value: 0,
    forecast_value: 0,
    create_time: '2026-01-05T10:00:00+08:00',
    resources: [{ resource: { ...offer.mark.resource }, region_name: offer.region_name, mark: offer.mark.mark }],
    services: [
      {
        service_id: 52001,
        service_name: 'dailyhot',
        service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0',
        remote_ports: [{ service_port: 6688, url: null }],
        env: 'MODE=prod\nHF_TOKEN=hf_abcdefghijklmnop',
        start_script_v2: { command: null, args: [] },
        shared_mem_size: 1024,
        health_checks: null,
      },
    ],
    ...overrides,
  };
}
