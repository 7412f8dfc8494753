// When the sandbox of `npm start` stops, VS Code keeps running: the user is told, and Enter restarts the
// sandbox (again after a failed restart); nothing is said while npm start itself is stopping.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { before, describe, it } from 'node:test';
import { importScript } from './importScript';

interface Supervisor {
  superviseSandbox(options: {
    sandbox: EventEmitter; restart: () => Promise<EventEmitter>; say: (line: string) => void; isStopping: () => boolean;
    logFile: string; interactive: boolean; input: NodeJS.ReadableStream;
  }): { close(): void };
}

/** Lets readline and the restart promise run until check() holds (at most 100 turns of the event loop). */
async function settle(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('npm start sandbox supervisor', () => {
  let lib: Supervisor;
  before(async () => { lib = await importScript<Supervisor>('scripts/lib/sandboxSupervisor.mjs'); });

  it('says the sandbox stopped, keeps VS Code, and restarts the sandbox on Enter, more than once', async () => {
    const said: string[] = [];
    const input = new PassThrough();
    const first = new EventEmitter();
    const started: EventEmitter[] = [];
    const restart = async (): Promise<EventEmitter> => { const next = new EventEmitter(); started.push(next); return next; };
    const watcher = lib.superviseSandbox({ sandbox: first, restart, say: (l) => said.push(l), isStopping: () => false, logFile: '/x/sandbox.log', interactive: true, input });

    first.emit('exit', 1, null);
    assert.match(said.join('\n'), /the sandbox stopped \(exit 1; log: \/x\/sandbox\.log\)/);
    assert.match(said.join('\n'), /VS Code keeps running/);
    assert.match(said.join('\n'), /press Enter here to restart the sandbox/);
    assert.equal(started.length, 0, 'nothing restarts before Enter');

    input.write('\n');
    await settle(() => started.length === 1 && /back/.test(said.at(-1) ?? ''));
    assert.equal(started.length, 1);
    assert.match(said.at(-1) ?? '', /the sandbox is back/);

    started[0]?.emit('exit', null, 'SIGKILL');
    assert.match(said.join('\n'), /the sandbox stopped \(SIGKILL/);
    input.write('\n');
    await settle(() => started.length === 2);
    assert.equal(started.length, 2, 'the restarted sandbox is watched too');
    watcher.close();
  });

  it('offers another try when a restart fails', async () => {
    const said: string[] = [];
    const input = new PassThrough();
    const first = new EventEmitter();
    let attempts = 0;
    const restart = async (): Promise<EventEmitter> => {
      attempts += 1;
      if (attempts === 1) throw new Error('port 4000 is taken');
      return new EventEmitter();
    };
    const watcher = lib.superviseSandbox({ sandbox: first, restart, say: (l) => said.push(l), isStopping: () => false, logFile: 'l', interactive: true, input });
    first.emit('exit', 0, null);
    input.write('\n');
    await settle(() => /try again/.test(said.at(-1) ?? ''));
    assert.match(said.at(-1) ?? '', /did not restart: port 4000 is taken; press Enter to try again/);
    input.write('\n');
    await settle(() => /back/.test(said.at(-1) ?? ''));
    assert.equal(attempts, 2);
    assert.match(said.at(-1) ?? '', /the sandbox is back/);
    watcher.close();
  });

  it('without a terminal, says how to get a sandbox again; while stopping, says nothing', () => {
    const said: string[] = [];
    const sandbox = new EventEmitter();
    lib.superviseSandbox({ sandbox, restart: async () => new EventEmitter(), say: (l) => said.push(l), isStopping: () => false, logFile: 'l', interactive: false, input: new PassThrough() });
    sandbox.emit('exit', 0, null);
    assert.match(said.join('\n'), /VS Code keeps running[\s\S]*run npm start again/);

    const quiet: string[] = [];
    const stopped = new EventEmitter();
    lib.superviseSandbox({ sandbox: stopped, restart: async () => new EventEmitter(), say: (l) => quiet.push(l), isStopping: () => true, logFile: 'l', interactive: true, input: new PassThrough() });
    stopped.emit('exit', null, 'SIGTERM');
    assert.deepEqual(quiet, []);
  });
});
