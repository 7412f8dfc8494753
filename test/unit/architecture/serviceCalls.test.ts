// A service per kind (issue 28, CONTRIBUTING.md): the editor layer never names a platform operation to the
// client (`.call('task.pause', …)`): each kind's service in src/core does, and the UI, the agent tools and
// the MCP server call the services. Only client/ and requests/ reach the client itself (`computeClient()`).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

/**
 * Where the editor layer may reach the active client: the provider and the services' factory (client/),
 * the services' declaration, and the request console (requests/: it signs and sends what the user typed).
 */
const CLIENT_ROOMS = /^src\/vscode\/(?:client\/|requests\/|services\.ts$|extensionServices\.ts$)/;

const OPERATION_CALL = /\.call\(\s*['"`]/g;
const CLIENT_SITE = /\bcomputeClient\(\)/g;

/** `file:line` of every match outside a comment line (a match may span lines: `.call(\n  'op'`). */
function sites(files: ReadonlyMap<string, string>, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const lines = text.split('\n');
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      if (!/^\s*(?:\/\/|\*|\/\*)/.test(lines[line - 1]!)) found.push(`${file}:${line}`);
    }
  }
  return found.sort();
}

const sources = readSources(typeScriptFiles('src/vscode'));

describe('the editor layer calls services, not operations', () => {
  it("names no operation to a client (no .call('…') in src/vscode)", () => {
    assert.deepEqual(sites(sources, OPERATION_CALL), [], "add the operation to its kind's service in src/core/<area>/ and call that");
  });

  it('reaches the client itself only in client/ and requests/', () => {
    const outside = sites(new Map([...sources].filter(([file]) => !CLIENT_ROOMS.test(file))), CLIENT_SITE);
    assert.deepEqual(outside, [], "take the kind's service, or a client source from the composition root (client/computeServices.ts)");
  });

  it("the agent tools read a job's pods through JobService (as the editor's job follower does)", () => {
    const tools = readSources(typeScriptFiles('src/core/tools'));
    assert.deepEqual(sites(tools, /\blistPods\(/g), [], 'jobsOf(context).pods(jobId, signal) (src/core/tools/services.ts)');
  });

  it('the checks see what they look for', () => {
    const sample = new Map([
      ['src/vscode/a.ts', "await client.call('task.pause', { task_id: 1 });\nawait client.call(\n  \"job.stop\", {});\nfn.call(this, x);\n// client.call('x')"],
      ['src/vscode/b.ts', 'const c = services.computeClient();\n * services.computeClient() in a comment'],
    ]);
    assert.deepEqual(sites(sample, OPERATION_CALL), ['src/vscode/a.ts:1', 'src/vscode/a.ts:2']);
    assert.deepEqual(sites(sample, CLIENT_SITE), ['src/vscode/b.ts:1']);
  });
});
