#!/usr/bin/env node
// The sandbox's Jupyter tasks run a real Jupyter server (test/sandbox/notebooks): Debian's `jupyter-server`
// and `python3-ipykernel` under /usr/bin/python3. This installs them with apt when they are missing, as
// the fonts block of .ci/run does for fonts; `.ci/run` runs it in the background during `npm ci`, and
// `npm start` calls ensureJupyterDeps(). Without apt or root it says what to run and carries on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const JUPYTER_PYTHON = '/usr/bin/python3';
const PACKAGES = ['jupyter-server', 'python3-ipykernel'];

/** True when /usr/bin/python3 imports both the server and the kernel. */
export function hasJupyter() {
  if (!fs.existsSync(JUPYTER_PYTHON)) return false;
  const probe = spawnSync(JUPYTER_PYTHON, ['-c', 'import jupyter_server, ipykernel'], { stdio: 'ignore' });
  return probe.status === 0;
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Installs the packages when missing; returns a one-line outcome (never throws). */
export function ensureJupyterDeps({ say = console.log } = {}) {
  if (hasJupyter()) return say('jupyter: jupyter-server and python3-ipykernel are present');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = commandExists('apt-get');
  if (!apt || !asRoot) {
    return say(`jupyter: missing; Jupyter tasks in the sandbox need it — run: sudo apt-get install -y --no-install-recommends ${PACKAGES.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const options = { stdio: ['ignore', 'inherit', 'inherit'], env };
  // `apt-get install` alone first: the fonts block may have just updated the lists.
  let installed = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...PACKAGES], options).status === 0;
  if (!installed && spawnSync('apt-get', ['update', '-q'], options).status === 0) {
    installed = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...PACKAGES], options).status === 0;
  }
  say(installed && hasJupyter() ? `jupyter: installed ${PACKAGES.join(' ')}` : 'jupyter: could not install; the notebook tests will fail');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) ensureJupyterDeps();
