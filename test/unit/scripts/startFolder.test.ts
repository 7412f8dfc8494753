// `npm start` keeps the user's work: the sample project is seeded only when absent, user data and the
// workspace survive the end of a run, and the sandbox never comes back on the previous run's port.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importScript, repoRoot } from './importScript';

interface StartPaths { root: string; workspace: string; userData: string; extensions: string; logs: string; run: string; state: string }
interface StartFolder {
  startRoot(repoRoot: string, env: Record<string, string | undefined>): string;
  startPaths(root: string): StartPaths;
  seedOnce(dir: string, seed: (dir: string) => void): boolean;
  writeIfAbsent(file: string, text: string): boolean;
  readState(file: string): Record<string, unknown>;
  writeState(file: string, state: Record<string, unknown>): void;
  isAlive(pid: unknown): boolean;
  isStartRunning(pid: unknown, procDir?: string): boolean;
  pickPort(options: { preferred?: number; avoid?: number; freePort: () => Promise<number>; isFree?: (port: number) => Promise<boolean> }): Promise<number>;
  removeRunFiles(paths: StartPaths): void;
  rotateLog(file: string, maxBytes?: number): void;
}

const seedSample = (dir: string): void => {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'train.py'), 'print("sample")\n');
  fs.writeFileSync(path.join(dir, 'notes.md'), '# sample\n');
};

describe('npm start folder', () => {
  let lib: StartFolder;
  let tmp: string;
  before(async () => {
    lib = await importScript<StartFolder>('scripts/lib/startFolder.mjs');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-start-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('lives in the git-ignored .start/ unless COMPUTE_TOOLKIT_START_DIR names another folder', () => {
    assert.equal(lib.startRoot(repoRoot, {}), path.join(repoRoot, '.start'));
    assert.equal(lib.startRoot(repoRoot, { COMPUTE_TOOLKIT_START_DIR: tmp }), tmp);
    // git check-ignore exits 0 only for an ignored path.
    execFileSync('git', ['check-ignore', '-q', '.start/workspace/train.py'], { cwd: repoRoot });
  });

  it('seeds the sample project once and never overwrites, restores or deletes what the user changed', () => {
    const { workspace } = lib.startPaths(path.join(tmp, 'seed'));
    assert.equal(lib.seedOnce(workspace, seedSample), true);
    assert.equal(fs.readFileSync(path.join(workspace, 'train.py'), 'utf8'), 'print("sample")\n');
    fs.writeFileSync(path.join(workspace, 'train.py'), 'print("my edit")\n');
    fs.rmSync(path.join(workspace, 'notes.md'));
    fs.writeFileSync(path.join(workspace, 'mine.txt'), 'new file\n');

    assert.equal(lib.seedOnce(workspace, seedSample), false);
    assert.equal(fs.readFileSync(path.join(workspace, 'train.py'), 'utf8'), 'print("my edit")\n');
    assert.equal(fs.existsSync(path.join(workspace, 'notes.md')), false, 'a file the user deleted must not come back');
    assert.equal(fs.readFileSync(path.join(workspace, 'mine.txt'), 'utf8'), 'new file\n');
  });

  it('leaves neither a half-seeded project nor a staging folder when seeding fails', () => {
    const parent = path.join(tmp, 'failing');
    const dir = path.join(parent, 'workspace');
    assert.throws(() => lib.seedOnce(dir, (staging) => { seedSample(staging); throw new Error('disk full'); }), /disk full/);
    assert.equal(fs.existsSync(dir), false);
    assert.deepEqual(fs.readdirSync(parent), []);
    assert.equal(lib.seedOnce(dir, seedSample), true, 'the next start seeds it');
  });

  it('writes the default settings only when the user has none', () => {
    const file = path.join(tmp, 'settings', 'User', 'settings.json');
    assert.equal(lib.writeIfAbsent(file, '{"a": 1}\n'), true);
    fs.writeFileSync(file, '{"editor.fontSize": 18}\n');
    assert.equal(lib.writeIfAbsent(file, '{"a": 1}\n'), false);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"editor.fontSize": 18}\n');
  });

  it('removes only the current run files when a run ends: workspace, user data, extensions and logs stay', () => {
    const paths = lib.startPaths(path.join(tmp, 'end'));
    lib.seedOnce(paths.workspace, seedSample);
    const kept = [
      path.join(paths.userData, 'User', 'globalStorage', 'compute-toolkit.compute-toolkit', 'conversations.json'),
      path.join(paths.extensions, 'extensions.json'),
      path.join(paths.logs, 'sandbox.log'),
    ];
    for (const file of [...kept, path.join(paths.run, 'sandbox-bootstrap.json'), path.join(paths.run, 'tmp', 'x')]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'x');
    }
    lib.writeState(paths.state, { sandboxPort: 4000 });
    lib.removeRunFiles(paths);
    assert.equal(fs.existsSync(paths.run), false);
    for (const file of [...kept, path.join(paths.workspace, 'train.py'), paths.state]) assert.equal(fs.existsSync(file), true, file);
    assert.deepEqual(lib.readState(paths.state), { sandboxPort: 4000 });
  });

  it('keeps the logs that grow across runs bounded', () => {
    const file = path.join(tmp, 'logs', 'code-server.log');
    lib.rotateLog(file, 10); // missing: nothing to do
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'short');
    lib.rotateLog(file, 10);
    assert.equal(fs.readFileSync(file, 'utf8'), 'short');
    fs.writeFileSync(file, 'a log longer than ten bytes');
    lib.rotateLog(file, 10);
    assert.equal(fs.existsSync(file), false);
    assert.equal(fs.readFileSync(`${file}.old`, 'utf8'), 'a log longer than ten bytes');
  });

  it('reads a missing or corrupt state file as empty', () => {
    const file = path.join(tmp, 'state', 'state.json');
    assert.deepEqual(lib.readState(file), {});
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"sandboxPort": 12');
    assert.deepEqual(lib.readState(file), {});
  });

  it('tells a running npm start from a stale pid', () => {
    assert.equal(lib.isAlive(process.pid), true);
    assert.equal(lib.isAlive(undefined), false);
    assert.equal(lib.isAlive(2 ** 22 + 12345), false); // above Linux's pid_max limit
  });

  it('does not take a reused pid for a running npm start', () => {
    const proc = path.join(tmp, 'proc');
    fs.mkdirSync(path.join(proc, String(process.pid)), { recursive: true });
    const cmdline = path.join(proc, String(process.pid), 'cmdline');
    fs.writeFileSync(cmdline, ['/usr/bin/node', '/repo/scripts/start.mjs', '--port', '8080'].join('\0'));
    assert.equal(lib.isStartRunning(process.pid, proc), true);
    fs.writeFileSync(cmdline, ['/usr/bin/python3', 'server.py'].join('\0'));
    assert.equal(lib.isStartRunning(process.pid, proc), false);
    assert.equal(lib.isStartRunning(process.pid, path.join(tmp, 'no-proc')), true, 'without /proc a live pid counts');
    assert.equal(lib.isStartRunning(2 ** 22 + 12345, proc), false);
  });

  it('keeps the VS Code port when free and never gives the sandbox the previous run\'s port', async () => {
    const ports = [4001, 4001, 4002];
    const freePort = async (): Promise<number> => ports.shift() ?? 0;
    assert.equal(await lib.pickPort({ preferred: 5000, freePort, isFree: async () => true }), 5000);
    assert.equal(await lib.pickPort({ preferred: 5000, freePort: async () => 5001, isFree: async () => false }), 5001);
    assert.equal(await lib.pickPort({ avoid: 4001, freePort }), 4002);
    await assert.rejects(lib.pickPort({ avoid: 7, freePort: async () => 7 }), /no free port other than 7/);
  });
});
