// Connect… with "Use my SSH agent" inside a real VS Code against the sandbox's real SSH machine
// (docs/machines.md "Connecting from the editor"): a real Debian ssh-agent started here holding a key made
// here with ssh-keygen; the choice is offered only while the extension host's own environment names the
// agent (SSH_AUTH_SOCK), the agent's key is listed with its SHA256 fingerprint and installed, a terminal then
// logs in through the agent only, and with the key taken out of the agent a new terminal says to run ssh-add.

import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { answerFlow, isPick } from '../nas/answerFlow';
import { rentUntilServing } from './rentMachine';

const run = promisify(execFile);
// A device id no other suite uses.
const DEVICE = 9381;

describe('machines: Connect… through the SSH agent', () => {
  let api: ExtensionApi;
  let agent: ChildProcess | undefined;
  const work = mkdtempSync(join(tmpdir(), 'it-machine-agent-'));
  const socket = join(work, 'agent.sock');
  const keyFile = join(work, 'id_agent');
  const sshDir = join(work, 'ssh');
  const previousSocket = process.env.SSH_AUTH_SOCK;
  let fingerprint = '';

  before(async function () {
    this.timeout(PATIENCE_MS * 2);
    await computeWithSandbox();
    api = await extensionApi();
    // No own keys offered: only the generated key and the agent.
    api.tests.replace('machineSsh', { sshDir: () => sshDir });
    agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    await waitUntil('the agent socket', () => existsSync(socket));
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'agent@it', '-f', keyFile]);
    await run('ssh-add', [keyFile], { env: { ...process.env, SSH_AUTH_SOCK: socket } });
    fingerprint = /SHA256:[A-Za-z0-9+/]{43}/.exec((await run('ssh-keygen', ['-lf', `${keyFile}.pub`])).stdout)?.[0] ?? '';
    assert.ok(fingerprint);
    await rentUntilServing(api, DEVICE);
  });

  after(async () => {
    api.tests.restore('machineSsh');
    if (previousSocket === undefined) delete process.env.SSH_AUTH_SOCK;
    else process.env.SSH_AUTH_SOCK = previousSocket;
    for (const record of api.machineConnect.terminals().filter((item) => item.deviceId === DEVICE)) record.terminal.dispose();
    const running = agent;
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  /** Connect… answered as a user: the host key trusted, then `choose` picks the key (undefined: close the pick). */
  async function connectChoosing(choose: (labels: string[], input: vscode.QuickPick<vscode.QuickPickItem>) => vscode.QuickPickItem | undefined): Promise<{ connected: boolean; picks: { placeholder: string; labels: string[]; descriptions: string[] }[] }> {
    const picks: { placeholder: string; labels: string[]; descriptions: string[] }[] = [];
    const connected = await answerFlow(api, () => api.machineConnect.connect(DEVICE), async (input) => {
      assert.ok(isPick(input));
      picks.push({ placeholder: input.placeholder ?? '', labels: input.items.map((item) => item.label), descriptions: input.items.map((item) => item.description ?? '') });
      const trust = input.items.find((item) => item.label === 'Trust this host key and connect');
      const wanted = trust ?? choose(input.items.map((item) => item.label), input);
      if (wanted) input.activeItems = [wanted];
      else await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    });
    return { connected, picks };
  }

  it('is not offered while the extension host names no agent', async function () {
    this.timeout(PATIENCE_MS * 2);
    delete process.env.SSH_AUTH_SOCK;
    const { connected, picks } = await connectChoosing(() => undefined);
    assert.equal(connected, false, 'closed at the key pick');
    const keyPick = picks.find((pick) => pick.labels.includes('Generate a key for this machine'));
    assert.ok(keyPick, JSON.stringify(picks));
    assert.ok(!keyPick.labels.includes('Use my SSH agent'), keyPick.labels.join(', '));
  });

  it("installs the agent's key picked by its fingerprint; a terminal then logs in through the agent", async function () {
    this.timeout(PATIENCE_MS * 3);
    process.env.SSH_AUTH_SOCK = socket;
    const { connected, picks } = await connectChoosing((_labels, input) => input.items.find((item) => item.label === 'Use my SSH agent') ?? input.items.find((item) => item.description === fingerprint));
    assert.equal(connected, true, JSON.stringify(picks));
    const agentPick = picks.find((pick) => pick.descriptions.includes(fingerprint));
    assert.ok(agentPick, `the agent's key listed with its fingerprint: ${JSON.stringify(picks)}`);
    assert.equal(agentPick.descriptions.length, 1, 'the agent holds one key');
    const record = await api.machineConnect.openTerminal(DEVICE);
    assert.ok(record);
    await waitUntil('the prompt', () => record.state() === 'open' && record.text().includes('$ '), { timeoutMs: PATIENCE_MS });
    record.terminal.sendText('echo "agent-$((6*7))"');
    await waitUntil('the shell to answer', () => record.text().includes('agent-42'), { timeoutMs: PATIENCE_MS });
    record.terminal.dispose();
  });

  it('with the key taken out of the agent, a new terminal says to add it with ssh-add (no password fallback)', async function () {
    this.timeout(PATIENCE_MS * 2);
    await run('ssh-add', ['-D'], { env: { ...process.env, SSH_AUTH_SOCK: socket } });
    const refusals = api.surface.refusals().length;
    const errors = api.surface.logText().length;
    const record = await api.machineConnect.openTerminal(DEVICE).catch((error: unknown) => error);
    const said = (): string => `${api.surface.refusals().slice(refusals).map((item) => item.message).join('\n')}\n${api.surface.logText().slice(errors)}\n${record && typeof record === 'object' && 'text' in record ? (record as { text(): string }).text() : String(record)}`;
    await waitUntil('the agent refusal to be said', () => /ssh-add/.test(said()), { timeoutMs: PATIENCE_MS }).catch(() => assert.fail(said()));
  });
});
