// The Chromium that drives the workbench in the browser checks. By default it comes from the npm package
// @sparticuz/chromium (a devDependency), which ships a headless Chromium build inside the package as
// brotli-compressed files: unpacked once into the cache, it needs no system package and no download.
// COMPUTE_TOOLKIT_CHROMIUM names another binary instead (e.g. /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { createRequire } from 'node:module';
import { cacheDir } from './versions.mjs';

const require = createRequire(import.meta.url);
export const CHROMIUM_PACKAGE = '@sparticuz/chromium';

/** Arguments for a headless, sandbox-less, offline Chromium (root in CI, loopback only). */
export const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The package's folder and version, or undefined when it is not installed. */
export function chromiumPackage() {
  // Its `exports` hide package.json from require.resolve: look through the node_modules folders instead.
  for (const modules of require.resolve.paths(CHROMIUM_PACKAGE) ?? []) {
    const manifest = path.join(modules, CHROMIUM_PACKAGE, 'package.json');
    if (fs.existsSync(manifest)) return { dir: path.dirname(manifest), version: JSON.parse(fs.readFileSync(manifest, 'utf8')).version };
  }
  return undefined;
}

/**
 * Decompresses a brotli file to dest (executable), through a temporary name so that an interrupted or
 * concurrent unpack never leaves a half-written binary at dest. Returns dest.
 */
export async function unpackBrotliExecutable(source, dest) {
  if (fs.existsSync(dest)) return dest;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const partial = `${dest}.${process.pid}.partial`;
  try {
    await pipeline(fs.createReadStream(source), createBrotliDecompress(), fs.createWriteStream(partial, { mode: 0o755 }));
    fs.renameSync(partial, dest);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return dest;
}

/**
 * Path of the Chromium binary to launch: COMPUTE_TOOLKIT_CHROMIUM when set (it must exist), else the
 * packaged build unpacked into <cache>/chromium/<version>/ on first use.
 */
export async function chromiumExecutable({ env = process.env, cache = cacheDir, say = () => {}, platform = process.platform, arch = process.arch } = {}) {
  const named = env.COMPUTE_TOOLKIT_CHROMIUM;
  if (named) {
    if (!fs.existsSync(named)) throw new Error(`COMPUTE_TOOLKIT_CHROMIUM names ${named}, which does not exist`);
    return named;
  }
  if (platform !== 'linux' || arch !== 'x64') {
    throw new Error(`${CHROMIUM_PACKAGE} ships a Linux x64 build only; on ${platform}-${arch} set COMPUTE_TOOLKIT_CHROMIUM to a Chrome or Chromium binary`);
  }
  const pkg = chromiumPackage();
  if (!pkg) throw new Error(`${CHROMIUM_PACKAGE} is not installed: run npm install (or set COMPUTE_TOOLKIT_CHROMIUM to a Chromium binary)`);
  const dest = path.join(cache, 'chromium', pkg.version, 'chromium');
  if (!fs.existsSync(dest)) say(`unpacking Chromium from ${CHROMIUM_PACKAGE}@${pkg.version} into ${path.dirname(dest)} (once)`);
  return unpackBrotliExecutable(path.join(pkg.dir, 'bin', 'chromium.br'), dest);
}
