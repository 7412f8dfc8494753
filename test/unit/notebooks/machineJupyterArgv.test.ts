// The command line a machine's Jupyter server is started with (src/core/notebooks/machineJupyter.ts): the start
// script run by bash against a stand-in Python that records what it was given — the exact options (names
// checked against Debian's jupyter-server in test/contract/notebooks-machine-options.test.ts), the token on
// stdin only: never an argument, never in the server's environment.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startScript } from '../../../src/core/notebooks/machineJupyter';

/** The options the server gets, after the script's `-c <program>` (the port and folder as the script fills them). */
function expectedServerArgv(port: string, folder: string, root: boolean): string[] {
  return ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--ServerApp.port_retries=0', `--ServerApp.root_dir=${folder}`, ...(root ? ['--allow-root'] : [])];
}

/** Runs the start script with a stand-in Python; what the "server" was given. */
function startWithStandIn(folder: string | undefined, token: string): { argv: string[]; stdin: string; environ: string; home: string; stdout: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'machine-jupyter-argv-'));
  try {
    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    const python = path.join(bin, 'python3');
    // `-c <program> args…`: the imports pass, the port probe prints a port, the server records and waits for stdin's end.
    fs.writeFileSync(
      python,
      ['#!/bin/sh', 'case "$2" in', '  *socket*) echo 45678 ;;', '  *ServerApp*) shift 2; printf "%s\\0" "$@" > "$HOME/argv"; env > "$HOME/environ"; cat > "$HOME/stdin.tmp"; mv "$HOME/stdin.tmp" "$HOME/stdin" ;;', 'esac', 'exit 0', ''].join('\n'),
      { mode: 0o755 },
    );
    // The script takes the Python `jupyter-server` runs with: the stand-in's.
    fs.writeFileSync(path.join(bin, 'jupyter-server'), `#!${python}\n`, { mode: 0o755 });
    const run = spawnSync('bash', ['-c', startScript(folder)], { input: `${token}\n`, env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    // The server runs detached: wait for its record (the stand-in writes stdin last, once it ended).
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(path.join(home, 'stdin'))) {
      assert.ok(Date.now() < deadline, 'the stand-in server was started');
      spawnSync('sleep', ['0.05']);
    }
    const argv = fs.readFileSync(path.join(home, 'argv'), 'utf8').split('\0').slice(0, -1);
    return { argv, stdin: fs.readFileSync(path.join(home, 'stdin'), 'utf8'), environ: fs.readFileSync(path.join(home, 'environ'), 'utf8'), home, stdout: run.stdout };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

describe('notebooks: the machine Jupyter server\'s command line', () => {
  const root = process.getuid?.() === 0;

  it('gets exactly the pinned options, the token on stdin only (not an argument, not its environment)', () => {
    const token = randomBytes(32).toString('hex');
    const home = startWithStandIn(undefined, token);
    assert.deepEqual(home.argv, expectedServerArgv('45678', home.home, root));
    assert.equal(home.stdin, `${token}\n`);
    assert.ok(!home.argv.some((arg) => arg.includes(token)), 'the token is no argument');
    assert.ok(!home.environ.includes(token), 'the token is not in the server\'s environment');
    assert.ok(!home.stdout.includes(token), 'the script does not print it');
    assert.match(home.stdout, /^started 45678 \d+$/m);
  });

  it('passes a folder with quotes and spaces as one word', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "it's a folder; $(x) "));
    try {
      const started = startWithStandIn(folder, randomBytes(32).toString('hex'));
      assert.deepEqual(started.argv, expectedServerArgv('45678', folder, root));
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
