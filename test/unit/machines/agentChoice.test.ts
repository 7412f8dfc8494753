// Whether "Use my SSH agent" is offered and what an agent login keeps (docs/machines.md): the agent's socket
// comes only from the extension host's process environment (SSH_AUTH_SOCK), never from a workspace's
// settings or files; the kept record holds only the fingerprint and the fact that the agent is used.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentSocket } from '../../../src/core/ssh/agentSocket';
import { SecretMachineKeyStore } from '../../../src/vscode/machines/connect/machineKeyStore';

const FINGERPRINT = `SHA256:${'A'.repeat(43)}`;

class MemorySecrets {
  readonly values = new Map<string, string>();
  get = async (key: string) => this.values.get(key);
  store = async (key: string, value: string) => void this.values.set(key, value);
  delete = async (key: string) => void this.values.delete(key);
  keys = async () => [...this.values.keys()];
  onDidChange = () => ({ dispose: () => undefined });
}

function withSocket<T>(value: string | undefined, run: () => Promise<T>): Promise<T> {
  const before = process.env.SSH_AUTH_SOCK;
  if (value === undefined) delete process.env.SSH_AUTH_SOCK;
  else process.env.SSH_AUTH_SOCK = value;
  return run().finally(() => {
    if (before === undefined) delete process.env.SSH_AUTH_SOCK;
    else process.env.SSH_AUTH_SOCK = before;
  });
}

describe('the SSH agent choice', () => {
  it('is not offered without SSH_AUTH_SOCK, nor for a value that is not one absolute path', () => {
    assert.equal(agentSocket({}), undefined);
    assert.equal(agentSocket({ SSH_AUTH_SOCK: '' }), undefined);
    assert.equal(agentSocket({ SSH_AUTH_SOCK: 'agent.sock' }), undefined);
    assert.equal(agentSocket({ SSH_AUTH_SOCK: '/tmp/a.sock\nHost evil' }), undefined);
    assert.equal(agentSocket({ SSH_AUTH_SOCK: '/tmp/a\0.sock' }), undefined);
    assert.equal(agentSocket({ SSH_AUTH_SOCK: `/${'x'.repeat(2000)}` }), undefined);
    assert.equal(agentSocket({ SSH_AUTH_SOCK: '/tmp/ssh-XYZ/agent.123' }), '/tmp/ssh-XYZ/agent.123');
    assert.equal(agentSocket({ SSH_AUTH_SOCK: '\\\\.\\pipe\\openssh-ssh-agent' }), '\\\\.\\pipe\\openssh-ssh-agent');
  });

  it('reads the socket from the process environment only: no editor code takes it from settings or workspace files', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (full.endsWith('.ts')) files.push(full);
      }
    };
    walk(join(__dirname, '../../../../src'));
    // Code, not comments; the only other mention allowed is the text of a core message (messages.ts).
    const mentions = files.flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((line) => /\bSSH_AUTH_SOCK\b/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)).map((line) => ({ file: file.slice(file.lastIndexOf('src/')), line })));
    const readers = mentions.filter((mention) => !(mention.file === 'src/core/errors/messages.ts' && /^\s*'[\w.]+': '/.test(mention.line)));
    assert.deepEqual([...new Set(readers.map((mention) => mention.file))], ['src/core/ssh/agentSocket.ts']);
    const calls = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bagentSocket\(([^)]*)\)/g)].map((match) => match[1])).filter((argument) => !argument?.includes(':'));
    assert.ok(calls.length >= 2, 'the connector and the key store ask for the socket');
    assert.deepEqual([...new Set(calls)], ['process.env']);
  });

  it('keeps only the fingerprint and the fact that the agent is used; the socket is read from the environment at each connect', async () => {
    const secrets = new MemorySecrets();
    const store = new SecretMachineKeyStore(secrets as never, 'p1');
    await store.saveMachineKey(7, { publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample', privateKey: '', agent: { fingerprint: FINGERPRINT, socket: '/tmp/agent.sock' } });
    assert.deepEqual(JSON.parse([...secrets.values.values()][0] ?? '{}'), { key: { agent: true, fingerprint: FINGERPRINT } });
    assert.deepEqual(await withSocket('/run/user/1000/agent', () => store.machineKey(7)), { publicKey: '', privateKey: '', agent: { fingerprint: FINGERPRINT, socket: '/run/user/1000/agent' } });
    assert.equal((await withSocket(undefined, () => store.machineKey(7)))?.agent?.socket, undefined);
    assert.equal(await store.ownKeyFile(7), undefined);
    assert.equal(await store.agentFingerprint(7), FINGERPRINT);
  });

  it('ignores a socket written into the stored record and refuses a damaged fingerprint', async () => {
    const secrets = new MemorySecrets();
    const store = new SecretMachineKeyStore(secrets as never, 'p1');
    await secrets.store('computeToolkit.machines.key/p1/8', JSON.stringify({ key: { agent: true, fingerprint: FINGERPRINT, socket: '/tmp/evil.sock' } }));
    assert.equal((await withSocket(undefined, () => store.machineKey(8)))?.agent?.socket, undefined);
    await secrets.store('computeToolkit.machines.key/p1/9', JSON.stringify({ key: { agent: true, fingerprint: 'SHA256:short\n' } }));
    assert.equal(await store.machineKey(9), undefined);
  });
});
