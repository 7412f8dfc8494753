// The options the extension starts a machine's Jupyter server with (src/core/notebooks/machineJupyter.ts)
// are ones the installed Debian `jupyter-server` knows (`--help-all` of the Python the sandbox's Jupyter runs
// with): a misspelt one would stop the server from starting on a real machine.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { startScript } from '../../src/core/notebooks/machineJupyter';
import { JUPYTER_PYTHON } from '../sandbox/notebooks/jupyterServers';

describe('notebooks: the machine Jupyter server\'s options', () => {
  it('every option the start script passes is one jupyter-server lists', () => {
    // From the server's start to its log redirect (the program text of `-c` spans lines and holds no option).
    const script = startScript(undefined);
    const serverLine = script.slice(script.indexOf('nohup setsid'), script.indexOf(' >"$HOME/.compute-toolkit/'));
    assert.ok(serverLine.startsWith('nohup setsid') && serverLine.length > 20, serverLine);
    const options = [...serverLine.matchAll(/\s(--[A-Za-z][\w.-]*)/g)].map((match) => match[1] as string);
    const help = execFileSync(JUPYTER_PYTHON, ['-m', 'jupyter_server', '--help-all'], { encoding: 'utf8', maxBuffer: 8 * 1024 * 1024, timeout: 120_000 });
    const known = new Set([...help.matchAll(/^(--[A-Za-z][\w.-]*)/gm)].map((match) => match[1]));
    assert.ok(known.size > 50, 'jupyter-server listed its options');
    // The script's `$R` is --allow-root (for root logins); it is in the script's text, not the server line.
    assert.ok(startScript(undefined).includes('R=--allow-root'));
    for (const option of [...options, '--allow-root']) assert.ok(known.has(option), `jupyter-server knows ${option}`);
    assert.deepEqual(options, ['--no-browser', '--ip', '--port', '--ServerApp.port_retries', '--ServerApp.root_dir']);
  });
});
