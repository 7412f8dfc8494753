// A running Jupyter task on the sandbox (its real Jupyter server) whose token is kept as the user's would be,
// for the task kernel suites.
import * as assert from 'node:assert/strict';
import type { ExtensionApi } from '../../../src/vscode/api';
import { SecretKeys } from '../../../src/vscode/commandIds';

export async function createJupyterTask(api: ExtensionApi, token: string): Promise<number> {
  const client = api.services.computeClient();
  const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
  const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  assert.ok(region);
  const { task_id: taskId } = await client.call('task.create', {
    task_name: 'notebook-kernel',
    points: 1,
    resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
    services: [{ service_name: 'jupyter', service_image: 'quay.io/jupyter/pytorch-notebook:cuda12-latest', remote_ports: [{ service_port: 8888 }], env: `JUPYTER_TOKEN=${token}`, start_script_v2: { command: null, args: [] } }],
  });
  const profileId = api.services.profiles.active?.id;
  assert.ok(profileId);
  await api.services.context.secrets.store(`${SecretKeys.jupyterTokenPrefix}.${profileId}.${taskId}`, token);
  return taskId;
}
