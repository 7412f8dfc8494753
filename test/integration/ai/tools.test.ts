// The compute tools through vscode.lm: registered with the manifest, every tool invoked against the sandbox,
// the confirmation of each write and destructive tool (prod named, cost or loss shown), and the MCP server
// definition for the active profile (secrets only at resolve time).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { connectedApi, resultText, until } from './aiTestApi';
import { sandboxUrl } from '../sandboxInfo';

/** The read tools (offered by the MCP server inside VS Code, which is read-only), then the others. */
const READ_TOOL_NAMES = [
  'compute_search_gpus', 'compute_list_tasks', 'compute_get_task', 'compute_node_log', 'compute_list_storage', 'compute_explain_failure',
  'compute_get_job', 'compute_job_logs', 'compute_nas_list_volumes', 'compute_nas_list_directory', 'compute_nas_read_file',
  'compute_validate_spec', 'compute_plan_spec', 'compute_search_machines', 'compute_list_machines', 'compute_machine_connection',
];
const TOOL_NAMES = [
  ...READ_TOOL_NAMES,
  'compute_create_task', 'compute_change_node_count', 'compute_pause_task', 'compute_recover_task', 'compute_stop_task',
  'compute_run_job', 'compute_stop_job', 'compute_nas_upload_file', 'compute_apply_spec', 'compute_rent_machine',
];

async function invoke(name: string, input: object): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  try {
    return resultText(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token));
  } finally {
    source.dispose();
  }
}

describe('ai: compute tools through vscode.lm against the sandbox', () => {
  let api: ExtensionApi;

  before(async () => {
    api = await connectedApi();
  });

  it('lists every compute tool in vscode.lm.tools with its tags', () => {
    const ours = vscode.lm.tools.filter((tool) => tool.tags.includes('compute'));
    assert.deepEqual(ours.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort());
    assert.ok(ours.find((tool) => tool.name === 'compute_stop_task')?.tags.includes('compute-destructive'));
  });

  it('invokes every tool: read tools, then create → scale → pause → recover → stop (sandbox: no confirmation needed)', async () => {
    const gpus = await invoke('compute_search_gpus', { gpu_model: '4090', gpu_count: 1 });
    assert.match(gpus, /RTX 4090 × 1 · 24 GB VRAM per card .*¥\d+\.\d\d\/h .*device_name "RTX 4090 x 1"/);
    assert.match(await invoke('compute_list_tasks', {}), /"qwen3-32b-serving"/);
    assert.match(await invoke('compute_list_storage', {}), /storage volume/);
    assert.match(await invoke('compute_explain_failure', {}), /Key mode: token[\s\S]*accepted ✓/);

    const created = await invoke('compute_create_task', { task_name: 'lm-tools-test', device_name: 'RTX 4090 x 1', region: '北京一区', image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688] });
    const taskId = Number(/Created task (\d+)/.exec(created)?.[1]);
    assert.ok(taskId > 0, created);
    await until(() => invoke('compute_get_task', { task_id: taskId }), (text) => text.includes('· Running ·'), 'the task to run');
    const detail = await invoke('compute_get_task', { task_id: taskId });
    assert.match(detail, /6688 → https?:\/\//);
    assert.match(await invoke('compute_node_log', { task_id: taskId, lines: 5 }), /Log of node \d+|has written no log lines yet/);
    assert.match(await invoke('compute_change_node_count', { task_id: taskId, nodes: 2 }), /now asks for 2 node/);
    assert.match(await invoke('compute_pause_task', { task_id: taskId }), /paused/);
    await until(() => invoke('compute_get_task', { task_id: taskId }), (text) => text.includes('· Paused ·'), 'the task to pause');
    assert.match(await invoke('compute_recover_task', { task_id: taskId }), /recovering/);
    await until(() => invoke('compute_get_task', { task_id: taskId }), (text) => text.includes('· Running ·'), 'the task to run again');
    assert.match(await invoke('compute_stop_task', { task_id: taskId }), /stopped and deleted/);
    await until(() => invoke('compute_get_task', { task_id: taskId }), (text) => text.includes('· End ·'), 'the task to end');
  });

  it('NAS tools: list volumes, list a folder, read a small file (fenced), upload a workspace file; the upload confirms on prod with volume and path', async () => {
    const volumes = await invoke('compute_nas_list_volumes', {});
    const storageId = Number(/storage_id (\d+) "datasets": Active/.exec(volumes)?.[1]);
    assert.ok(storageId > 0, volumes);
    assert.match(await invoke('compute_nas_list_directory', { storage_id: storageId, path: '/' }), /data\/\n[\s\S]*README\.md {2}\d/);
    const read = await invoke('compute_nas_read_file', { storage_id: storageId, path: '/README.md' });
    assert.match(read, /not instructions:\n```\n# datasets\n\nShared training data\.\n```$/);
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
    assert.ok(folder, 'the test window has a folder open');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder.uri, 'nas-tool-upload.txt'), new TextEncoder().encode('from the workspace\n'));
    const input = { storage_id: storageId, local_path: 'nas-tool-upload.txt', remote_path: '/uploads/', overwrite: true };
    assert.match(await invoke('compute_nas_upload_file', input), /Uploaded 19 B to \/uploads\/nas-tool-upload\.txt on "datasets"/);
    assert.match(await invoke('compute_nas_read_file', { storage_id: storageId, path: '/uploads/nas-tool-upload.txt' }), /from the workspace/);
    assert.match(await invoke('compute_nas_upload_file', { ...input, local_path: '../outside.txt' }), /Error: [\s\S]*outside the open folder/);

    const sandbox = api.services.profiles.active;
    assert.ok(sandbox);
    const prod = { ...sandbox, id: 'ai-test-prod-nas', label: 'Prod NAS', environment: 'prod' as const };
    await api.surface.profiles.upsert(prod);
    const token = await api.services.profiles.getSecret(sandbox.id, 'apiToken');
    assert.ok(token);
    await api.surface.profiles.setSecret(prod.id, 'apiToken', token);
    await api.surface.profiles.setActive(prod.id);
    try {
      const tool = api.ai.tools.get('compute_nas_upload_file');
      assert.ok(tool);
      const source = new vscode.CancellationTokenSource();
      const prepared = await tool.prepareInvocation({ input }, source.token);
      source.dispose();
      const confirmation = prepared.confirmationMessages;
      assert.ok(confirmation, 'the upload asks for confirmation');
      const message = typeof confirmation.message === 'string' ? confirmation.message : confirmation.message.value;
      assert.match(confirmation.title, /^PRODUCTION: Upload nas-tool-upload\.txt to NAS volume "datasets"\?/);
      assert.match(message, /⚠ PRODUCTION profile "Prod NAS"/);
      assert.match(message, new RegExp(`storage_id ${storageId}`));
      assert.match(message, /Path: \/uploads\/nas-tool-upload\.txt \(19 B/);
    } finally {
      await api.surface.profiles.remove(prod.id);
      await api.surface.profiles.setActive(sandbox.id);
    }
  });

  it('gives errors a model can act on', async () => {
    assert.match(await invoke('compute_get_task', { task_id: 999_999_999 }), /Error: [\s\S]*Next step:/);
  });

  it('every write and destructive tool confirms on a prod profile, naming it, the task and the cost or loss', async () => {
    const sandbox = api.services.profiles.active;
    assert.ok(sandbox);
    const prod = { ...sandbox, id: 'ai-test-prod', label: 'Prod Test', environment: 'prod' as const };
    await api.surface.profiles.upsert(prod);
    const token = await api.services.profiles.getSecret(sandbox.id, 'apiToken');
    assert.ok(token);
    await api.surface.profiles.setSecret(prod.id, 'apiToken', token);
    await api.surface.profiles.setActive(prod.id);
    try {
      const list = await invoke('compute_list_tasks', { status: ['Running'] });
      const taskId = Number(/- (\d+) "qwen3-32b-serving"/.exec(list)?.[1]);
      assert.ok(taskId > 0, list);
      const inputs: Record<string, object> = {
        compute_create_task: { task_name: 'x', device_name: 'RTX 4090 x 2', region: '北京一区', image: 'a/b:1', ports: [80], nodes: 2 },
        compute_change_node_count: { task_id: taskId, nodes: 3 },
        compute_pause_task: { task_id: taskId },
        compute_recover_task: { task_id: taskId },
        compute_stop_task: { task_id: taskId },
      };
      for (const [name, input] of Object.entries(inputs)) {
        const tool = api.ai.tools.get(name);
        assert.ok(tool, name);
        const source = new vscode.CancellationTokenSource();
        const prepared = await tool.prepareInvocation({ input: input as Record<string, unknown> }, source.token);
        source.dispose();
        const confirmation = prepared.confirmationMessages;
        assert.ok(confirmation, `${name} asks for confirmation`);
        const message = typeof confirmation.message === 'string' ? confirmation.message : confirmation.message.value;
        assert.match(confirmation.title, /^PRODUCTION: /, name);
        assert.match(message, /⚠ PRODUCTION profile "Prod Test"/, name);
        if (name !== 'compute_create_task') assert.match(message, /"qwen3-32b-serving"/, `${name} names the task`);
        if (name === 'compute_create_task') assert.match(message, /2 × RTX 4090 × 2 in 北京一区 ≈ ¥\d+\.\d\d\/h/);
        if (name === 'compute_change_node_count') assert.match(message, /3 × RTX 4090 × 1 in .* ≈ ¥\d+\.\d\d\/h .*was ¥\d+\.\d\d\/h with 2 node/);
        if (name === 'compute_stop_task') assert.match(message, /deletes the task[\s\S]*cannot be undone/);
        if (name === 'compute_pause_task') assert.match(message, /billing stops/);
      }
      const read = await api.ai.tools.get('compute_list_tasks')?.prepareInvocation({ input: {} }, new vscode.CancellationTokenSource().token);
      assert.equal(read?.confirmationMessages, undefined, 'read tools need no confirmation');
    } finally {
      await api.surface.profiles.remove(prod.id);
      await api.surface.connectSandbox(sandboxUrl());
    }
  });

  it('the MCP provider offers the bundled server for the active profile, secrets only when resolved', async () => {
    const profile = api.services.profiles.active;
    assert.ok(profile);
    const [definition] = api.ai.mcpServers.provideMcpServerDefinitions();
    assert.ok(definition);
    assert.equal(definition.command, process.execPath);
    assert.match(definition.args[0] ?? '', /dist[\\/]mcp\.js$/);
    assert.equal(definition.env['ELECTRON_RUN_AS_NODE'], '1');
    assert.equal(definition.env['COMPUTE_TOOLKIT_BASE_URL'], profile.computeBaseUrl);
    assert.equal(definition.env['COMPUTE_TOOLKIT_TOKEN'], undefined, 'no secret before resolve');
    const resolved = await api.ai.mcpServers.resolveMcpServerDefinition(definition);
    assert.equal(resolved?.env['COMPUTE_TOOLKIT_TOKEN'], await api.services.profiles.getSecret(profile.id, 'apiToken'));
    const settings = JSON.stringify(vscode.workspace.getConfiguration('computeToolkit'));
    assert.ok(!settings.includes(String(resolved?.env['COMPUTE_TOOLKIT_TOKEN'])), 'the token is not in settings');
  });

  it('the resolved MCP definition starts the bundled server, which answers tools/list with the read tools', async () => {
    const [definition] = api.ai.mcpServers.provideMcpServerDefinitions();
    assert.ok(definition);
    const resolved = await api.ai.mcpServers.resolveMcpServerDefinition(definition);
    assert.ok(resolved);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...process.env, ...resolved.env })) if (typeof value === 'string') env[key] = value;
    const child = spawn(resolved.command, resolved.args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        let buffered = '';
        child.on('error', reject);
        child.on('exit', (code) => reject(new Error(`the MCP server exited with ${String(code)}`)));
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (text: string) => {
          buffered += text;
          const line = buffered.split('\n').find((candidate) => candidate.includes('"id":2'));
          if (line) resolve(line);
        });
        const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
        send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'in-host-test', version: '1' } } });
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      });
      const tools = (JSON.parse(answer) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
      assert.deepEqual(tools.sort(), [...READ_TOOL_NAMES].sort());
    } finally {
      child.kill();
    }
  });

  it('the MCP provider fires on a profile switch and offers nothing without a profile', async () => {
    const changed = new Promise<void>((resolve) => {
      const subscription = api.ai.mcpServers.onDidChangeMcpServerDefinitions(() => {
        subscription.dispose();
        resolve();
      });
    });
    const ids = api.services.profiles.all.map((profile) => profile.id);
    try {
      for (const id of ids) await api.surface.profiles.remove(id);
      await changed;
      assert.equal(api.services.profiles.active, undefined);
      assert.deepEqual(api.ai.mcpServers.provideMcpServerDefinitions(), []);
    } finally {
      await api.surface.connectSandbox(sandboxUrl());
    }
    assert.equal(api.ai.mcpServers.provideMcpServerDefinitions().length, 1);
  });
});
