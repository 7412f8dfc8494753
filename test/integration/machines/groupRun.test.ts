// Run on Machine Group… inside a real VS Code against three sandbox machines of one network group, each a
// real SSH server (docs/machines.md "Run on a machine group"): the group's rows carry the group context
// value (the command's menu), the group picked, the command asked, a review that opens on Cancel and lists
// the ranks, the rendezvous address, the command and the folder; each machine then gets its rank, the node
// count and rank 0's inner IP; the lines of all three come into one terminal tagged `[rank N]` as they
// arrive (each rank's own lines in its order); each machine's exit code at the end. A stand-in launcher
// prints what torchrun would be given. Pick Machines… (two of the three checked) runs a group of two;
// Ctrl+C typed in the group terminal stops the process on every machine (their pids checked gone).
// The rendezvous port is asked of rank 0 (this computer): with 29500 held here, another free one is
// picked and shown at the top of the group log.

import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import * as vscode from 'vscode';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { answerFlow, isPick } from '../nas/answerFlow';
import { connectAsUser } from './connectAsUser';
import { metalControl } from './metalControl';

// Device and network ids no other suite uses.
const NETWORK = 731;
const DEVICES = [9311, 9312, 9313];
const FOLDER = 'group-run-project';
const LAUNCHER = 'echo "ready $NODE_RANK nnodes=$NNODES nproc=$NPROC_PER_NODE addr=$MASTER_ADDR port=$MASTER_PORT in=$(basename "$PWD") args=$*"\necho "done $NODE_RANK"\nexit $((30 + NODE_RANK))\n';

describe('machines: Run on Machine Group', () => {
  let api: ExtensionApi;
  let root: vscode.Uri;
  const innerIps: string[] = [];
  let orderId = 0;
  let service: MachineService;
  const project = () => vscode.Uri.joinPath(root, FOLDER);
  const lines = (): string[] => api.machineConnect.groupRunTexts().flat();
  /** Waits for a line of the group terminal; a timeout shows the lines there. */
  const waitForLine = (what: string, test: (line: string) => boolean) =>
    waitUntil(what, () => lines().some(test), { timeoutMs: PATIENCE_MS * 2 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${lines().join('\n')}`);
    });

  before(async function () {
    this.timeout(PATIENCE_MS * 6);
    await computeWithSandbox();
    api = await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration run opens a workspace folder');
    root = folder.uri;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(project(), 'launch.sh'), new TextEncoder().encode(LAUNCHER));
    await metalControl('group', { network_id: NETWORK, device_ids: DEVICES });
    service = new MachineService(api.surface.createComputeClient({}));
    const [group] = (await service.groups({ billing_type: 'Hour', device_count: DEVICES.length, network_type: 'Ib' })).filter((item) => item.network_id === NETWORK);
    assert.ok(group);
    orderId = await service.rent({ products: group.inner, billing: 'Hour', packs: 1, softwareInit: false });
    for (const device of DEVICES) innerIps.push((await service.waitForServing(device, { pollMs: 50, timeoutMs: PATIENCE_MS })).inner_ip);
    await api.machines.refresh();
    // Each machine's key is installed once (Connect…, answered as a user would); the run logs in by key.
    for (const device of DEVICES) {
      await connectAsUser(api, device);
    }
  });

  after(async () => {
    await Promise.resolve(vscode.workspace.fs.delete(project(), { recursive: true })).catch(() => undefined);
  });

  it("marks the group's machines in the Machines view (the command's menu); the group's order holds its three machines and each names it", async () => {
    const snapshot = await api.machines.snapshot();
    for (const device of DEVICES) assert.equal(snapshot.machines.find((row) => row.id === device)?.contextValue, 'machine.Serving.group', JSON.stringify(snapshot.machines));
    // The sandbox lists one details id per GPU model (the first machine's): the other two are matched through the group.
    const order = (await service.orders()).find((candidate) => candidate.order_id === orderId);
    assert.ok(order, `order ${orderId} is listed`);
    const row = snapshot.orders.find((candidate) => candidate.label === `Order ${order.order_no}`);
    assert.deepEqual([...(row?.machines ?? [])].sort((a, b) => a - b), DEVICES, JSON.stringify(snapshot.orders));
    for (const device of DEVICES) assert.match(snapshot.machines.find((machine) => machine.id === device)?.order ?? '', new RegExp(`^Order: ${order.order_no}( \\(matched through its network group\\))?$`));
  });

  it('reviews on Cancel first, gives each machine its rank and the rendezvous (a port free on rank 0), interleaves the tagged lines and reports each exit code', async function () {
    this.timeout(PATIENCE_MS * 6);
    const held = await holdPort(29500);
    const seen: { title: string; active: string; labels: string[] }[] = [];
    const command = 'sh launch.sh --node_rank=$NODE_RANK train.py';
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.machines.runOnGroup', project()), (input) => {
      if (isPick(input)) {
        seen.push({ title: input.title ?? '', active: input.activeItems[0]?.label ?? '', labels: input.items.map((item) => item.label) });
        const wanted = input.items.find((item) => item.label === `Network group Ib-${NETWORK}` || item.label.startsWith('Sync and run on'));
        if (wanted) input.activeItems = [wanted];
      } else if (input.value !== command) {
        assert.match(input.value, /^torchrun --nnodes=\$NNODES --node_rank=\$NODE_RANK --nproc_per_node=\$NPROC_PER_NODE --master_addr=\$MASTER_ADDR --master_port=\$MASTER_PORT train\.py$/);
        input.value = command;
      }
    });
    const review = seen.find((entry) => entry.labels.some((label) => label.startsWith('Sync and run on')));
    assert.equal(review?.active, 'Cancel', `the review opens on Cancel: ${JSON.stringify(seen)}`);
    const expected = [
      ...DEVICES.map((device, rank) => `Rank ${rank}: Machine ${device} (8 × NVIDIA A100-SXM4-80GB) · inner IP ${innerIps[rank]}`),
      `Rendezvous: ${innerIps[0]} (rank 0), on a port free there, picked when the run starts`,
      `Folder synced: ${vscode.workspace.asRelativePath(project(), true)} → ~/runs/${FOLDER} on each machine`,
      `Command: ${command}`,
    ];
    for (const line of expected) assert.ok(review?.labels.some((label) => label.startsWith(line)), `${line} in ${review?.labels.join(' | ')}`);

    await waitForLine('the exit codes', (line) => /^Group run on 3 machines: 0 exited 0, 3 failed/.test(line));
    held.close();
    const all = lines();
    const port = rendezvousPort(all, innerIps[0] ?? '');
    assert.notEqual(port, 29500, 'the port held on rank 0 is not given out');
    for (const rank of [0, 1, 2]) {
      const own = all.filter((line) => line.startsWith(`[rank ${rank}] `) && !line.includes('Machine 93'));
      assert.deepEqual(own, [`[rank ${rank}] ready ${rank} nnodes=3 nproc=8 addr=${innerIps[0]} port=${port} in=${FOLDER} args=--node_rank=${rank} train.py`, `[rank ${rank}] done ${rank}`], all.join('\n'));
    }
    for (const [rank, device] of DEVICES.entries()) {
      assert.ok(all.some((line) => line.startsWith(`[rank ${rank}] Machine ${device} (8 × NVIDIA A100-SXM4-80GB): exit code ${30 + rank}`)), all.join('\n'));
    }
  });

  it('Pick Machines…: two of the three checked by hand run as a group of two, ranked by device id', async function () {
    this.timeout(PATIENCE_MS * 6);
    const before = lines().length;
    const command = 'sh launch.sh picked';
    let checked: string[] = [];
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.machines.runOnGroup', project()), (input) => {
      if (!isPick(input)) {
        input.value = command;
        return;
      }
      if (input.canSelectMany) {
        // Checked in the wrong order on purpose: rank 0 is the lowest device id.
        input.selectedItems = [DEVICES[2], DEVICES[0]].map((device) => input.items.find((item) => item.label.startsWith(`Machine ${device} `))).filter((item) => item !== undefined);
        checked = input.selectedItems.map((item) => item.label);
        return;
      }
      const wanted = input.items.find((item) => item.label === 'Pick Machines…' || item.label.startsWith('Sync and run on'));
      if (wanted) input.activeItems = [wanted];
    });
    assert.equal(checked.length, 2, 'the machines were offered with checkboxes');
    const fresh = (): string[] => lines().slice(before);
    await waitUntil('the group of two to end', () => fresh().some((line) => /^Group run on 2 machines: 0 exited 0, 2 failed/.test(line)), { timeoutMs: PATIENCE_MS * 2 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${fresh().join('\n')}`);
    });
    const all = fresh();
    const port = rendezvousPort(all, innerIps[0] ?? '');
    assert.ok(all.includes(`[rank 0] ready 0 nnodes=2 nproc=8 addr=${innerIps[0]} port=${port} in=${FOLDER} args=picked`), all.join('\n'));
    assert.ok(all.includes(`[rank 1] ready 1 nnodes=2 nproc=8 addr=${innerIps[0]} port=${port} in=${FOLDER} args=picked`), all.join('\n'));
    assert.ok(all.some((line) => line.startsWith(`[rank 1] Machine ${DEVICES[2]} (8 × NVIDIA A100-SXM4-80GB): exit code 31`)), all.join('\n'));
    assert.ok(!all.some((line) => line.includes(`Machine ${DEVICES[1]} `)), 'the unchecked machine is left out');
  });

  it('Ctrl+C in the group terminal stops the command on every machine: each process gone, each rank reported', async function () {
    this.timeout(PATIENCE_MS * 6);
    const before = lines().length;
    const fresh = (): string[] => lines().slice(before);
    // `exec`: the shell becomes the sleep, so the pid printed is the process Ctrl+C must stop.
    const command = 'echo "started $NODE_RANK pid=$$"; exec sleep 613';
    // Not awaited yet: the command ends only with the run, which Ctrl+C ends.
    const flow = answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.machines.runOnGroup', project()), (input) => {
      if (!isPick(input)) {
        input.value = command;
        return;
      }
      const wanted = input.items.find((item) => item.label === `Network group Ib-${NETWORK}` || item.label.startsWith('Sync and run on'));
      if (wanted) input.activeItems = [wanted];
    });
    const pids = await waitUntil('every rank to start', () => {
      const found = [0, 1, 2].map((rank) => fresh().map((line) => new RegExp(`^\\[rank ${rank}\\] started ${rank} pid=(\\d+)$`).exec(line)?.[1]).find((pid) => pid !== undefined));
      return found.every((pid) => pid !== undefined) ? found.map(Number) : undefined;
    }, { timeoutMs: PATIENCE_MS * 2 });
    for (const pid of pids) assert.equal(alive(pid), true, `pid ${pid} runs before Ctrl+C`);
    const terminal = vscode.window.terminals.filter((candidate) => candidate.name === `Group: ${FOLDER}`).at(-1);
    assert.ok(terminal, vscode.window.terminals.map((candidate) => candidate.name).join(', '));
    terminal.sendText('\x03', false);
    await waitUntil('the group run to end after Ctrl+C', () => fresh().some((line) => /^Group run on 3 machines: 0 exited 0, 3 failed/.test(line)), { timeoutMs: PATIENCE_MS * 2 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${fresh().join('\n')}`);
    });
    await flow;
    const all = fresh();
    assert.ok(all.some((line) => line.includes('Stopping the command on every machine')), all.join('\n'));
    for (const [rank, device] of DEVICES.entries()) assert.ok(all.some((line) => line.startsWith(`[rank ${rank}] Machine ${device} (8 × NVIDIA A100-SXM4-80GB): exit code`)), all.join('\n'));
    await waitUntil('every machine\'s process to be gone', () => pids.every((pid) => !alive(pid)), { timeoutMs: PATIENCE_MS });
  });
});

/** Whether a process runs (the sandbox machines run their commands on this computer). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The port of the group log's rendezvous line. */
function rendezvousPort(lines: readonly string[], master: string): number {
  const escaped = master.replace(/[.]/g, '\\.');
  const port = lines.map((line) => new RegExp(`^Rendezvous: ${escaped}:(\\d+) \\(rank 0, a port free there\\)$`).exec(line)?.[1]).find((found) => found !== undefined);
  assert.ok(port, lines.join('\n'));
  return Number(port);
}

/**
 * Holds a port on this computer (rank 0's). The same suite of the other VS Code version runs at the same
 * time on this computer and holds it for its own group run: wait until it lets go (its run takes seconds),
 * so the check below always means something.
 */
async function holdPort(port: number): Promise<Server> {
  return waitUntil(`port ${port} free to hold`, () => {
    const server = createServer();
    return new Promise<Server | undefined>((resolve) => {
      server.once('error', () => resolve(undefined));
      server.listen(port, '0.0.0.0', () => resolve(server));
    });
  }, { timeoutMs: PATIENCE_MS * 3, everyMs: 200 });
}
