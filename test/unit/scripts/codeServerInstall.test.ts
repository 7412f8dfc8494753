// code-server installs on a machine without system packages: the kerberos addon (which needs the GSSAPI
// headers) is swapped for a stand-in, and the long install reports progress.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importScript } from './importScript';

interface Kerberos {
  gssapiHeadersPresent(includeDirs?: string[]): boolean;
  useKerberosStub(env: Record<string, string | undefined>, headersPresent: () => boolean): boolean;
  withKerberosStub(manifest: Record<string, unknown>, spec: string): Record<string, unknown> | undefined;
  installKerberosStub(codeServerPackageDir: string, stubDir: string): boolean;
}
interface Install { npmPhase(line: string): string | undefined }
interface Exec { formatElapsed(ms: number): string; runWithProgress(command: string, args: string[], options: Record<string, unknown>): Promise<{ seconds: number }> }

/** The parts of code-server 4.139.1's lib/vscode/package.json that matter here. */
const vscodeManifest = {
  name: 'code-oss',
  dependencies: { '@vscode/spdlog': '^0.15.8', kerberos: '2.1.1', 'node-pty': '^1.2.0-beta.15' },
  overrides: { 'node-gyp-build': '4.8.1', 'kerberos@2.1.1': { 'node-addon-api': '7.1.0' } },
  allowScripts: { 'kerberos@2.1.1': true },
};

describe('code-server install without system packages', () => {
  let kerberos: Kerberos;
  let install: Install;
  let exec: Exec;
  let tmp: string;
  before(async () => {
    kerberos = await importScript<Kerberos>('scripts/vscode-web/kerberos.mjs');
    install = await importScript<Install>('scripts/vscode-web/install.mjs');
    exec = await importScript<Exec>('scripts/lib/exec.mjs');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-install-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('builds the real addon only where <gssapi/gssapi.h> is on the default include path', () => {
    assert.equal(kerberos.gssapiHeadersPresent([path.join(tmp, 'none')]), false);
    const include = path.join(tmp, 'include');
    fs.mkdirSync(path.join(include, 'gssapi'), { recursive: true });
    fs.writeFileSync(path.join(include, 'gssapi', 'gssapi.h'), '');
    assert.equal(kerberos.gssapiHeadersPresent([path.join(tmp, 'none'), include]), true);
  });

  it('stubs when the headers are missing, unless COMPUTE_TOOLKIT_KERBEROS says stub or build', () => {
    assert.equal(kerberos.useKerberosStub({}, () => false), true);
    assert.equal(kerberos.useKerberosStub({}, () => true), false);
    assert.equal(kerberos.useKerberosStub({ COMPUTE_TOOLKIT_KERBEROS: 'stub' }, () => true), true);
    assert.equal(kerberos.useKerberosStub({ COMPUTE_TOOLKIT_KERBEROS: 'build' }, () => false), false);
  });

  it('points kerberos at the stub, drops its conflicting override, keeps everything else', () => {
    const patched = kerberos.withKerberosStub(vscodeManifest, 'file:../stub');
    assert.ok(patched);
    assert.deepEqual(patched.dependencies, { ...vscodeManifest.dependencies, kerberos: 'file:../stub' });
    assert.deepEqual(patched.overrides, { 'node-gyp-build': '4.8.1' });
    assert.deepEqual(patched.allowScripts, vscodeManifest.allowScripts);
    assert.equal(kerberos.withKerberosStub({ dependencies: { ws: '8' } }, 'file:../stub'), undefined);
  });

  it('installs a stub that VS Code can import and that explains itself on use', async () => {
    const packageDir = path.join(tmp, 'cs', 'node_modules', 'code-server');
    const vscodeDir = path.join(packageDir, 'lib', 'vscode');
    fs.mkdirSync(vscodeDir, { recursive: true });
    fs.writeFileSync(path.join(vscodeDir, 'package.json'), JSON.stringify(vscodeManifest));
    fs.writeFileSync(path.join(vscodeDir, 'npm-shrinkwrap.json'), JSON.stringify({
      packages: { '': { dependencies: vscodeManifest.dependencies }, 'node_modules/kerberos': { version: '2.1.1' }, 'node_modules/ws': { version: '8.0.0' } },
    }));
    const stubDir = path.join(tmp, 'cs', 'kerberos-stub');
    assert.equal(kerberos.installKerberosStub(packageDir, stubDir), true);

    const manifest = JSON.parse(fs.readFileSync(path.join(vscodeDir, 'package.json'), 'utf8'));
    const spec = String(manifest.dependencies.kerberos);
    assert.match(spec, /^file:/);
    assert.equal(path.resolve(vscodeDir, spec.slice('file:'.length)), stubDir);
    const shrinkwrap = JSON.parse(fs.readFileSync(path.join(vscodeDir, 'npm-shrinkwrap.json'), 'utf8'));
    assert.equal(shrinkwrap.packages['node_modules/kerberos'], undefined);
    assert.equal(shrinkwrap.packages[''].dependencies.kerberos, spec);
    assert.deepEqual(shrinkwrap.packages['node_modules/ws'], { version: '8.0.0' });

    const stub = createRequire(__filename)(stubDir) as { initializeClient(spn: string): Promise<unknown>; default: unknown };
    assert.equal(stub.default, stub, 'VS Code reads `module.default || module`');
    await assert.rejects(stub.initializeClient('HTTP@proxy.example'), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'KERBEROS_UNAVAILABLE');
      assert.match(error.message, /Kerberos proxy authentication is unavailable.*libkrb5-dev/);
      return true;
    });
  });

  it('names the step a long npm install is at from its output', () => {
    assert.equal(install.npmPhase('> @vscode/sqlite3@5.1.12-vscode install'), 'building @vscode/sqlite3 (install)');
    assert.equal(install.npmPhase('> node-pty@1.2.0-beta.15 postinstall'), 'building node-pty (postinstall)');
    assert.equal(install.npmPhase('Installing Code dependencies...'), 'installing VS Code\'s dependencies');
    assert.equal(install.npmPhase('  CXX(target) Release/obj.target/spdlog/src/main.o'), undefined);
    assert.equal(exec.formatElapsed(75_000), '1 min 15 s');
    assert.equal(exec.formatElapsed(9_400), '9 s');
  });

  it('prints progress while a long command runs and keeps its output in the log', async () => {
    const lines: string[] = [];
    const logFile = path.join(tmp, 'progress.log');
    const script = 'console.log("> pkg@1.0.0 install"); setTimeout(() => console.log("done"), 400);';
    await exec.runWithProgress(process.execPath, ['-e', script], {
      logFile, label: 'installing', intervalMs: 50, say: (line: string) => lines.push(line), phase: install.npmPhase,
    });
    assert.ok(lines.length >= 2, `expected heartbeats, got ${JSON.stringify(lines)}`);
    assert.match(lines.at(-1) ?? '', /^installing: \d+ s \(building pkg \(install\)\) …$/);
    assert.match(fs.readFileSync(logFile, 'utf8'), /> pkg@1\.0\.0 install\ndone\n/);
    await assert.rejects(
      exec.runWithProgress(process.execPath, ['-e', 'console.log("boom"); process.exit(3)'], { logFile, label: 'x', say: () => {} }),
      /exited with 3 \(full log: .*\)\n[\s\S]*boom/,
    );
  });
});
