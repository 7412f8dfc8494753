// A service per kind (issue 28, CONTRIBUTING.md): the editor layer never names a platform operation to the
// client (`.call('task.pause', …)`): each kind's service in src/core does, and the UI, the agent tools and
// the MCP server call the services. Reaching the client itself (`computeClient()`) is a ratchet.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

/**
 * Where the editor layer may reach the active client: the provider and the services' factory (client/),
 * the services' declaration, and the request console (requests/: it signs and sends what the user typed).
 */
const CLIENT_ROOMS = /^src\/vscode\/(?:client\/|requests\/|services\.ts$|extensionServices\.ts$)/;

/**
 * `computeClient()` sites elsewhere in src/vscode allowed today (a ratchet: it only goes down). 9 since
 * the NAS, storage and service factories share one active-client source and the Tasks view's ended pages
 * come from TaskService; 7 since the node log document reads through TaskService.nodeLog and the Machines
 * area's MachineService is built in client/computeServices.ts; 4 since the job follower reads through
 * JobService, the NAS sessions obtain and close through VolumeService and the machine connector takes
 * machineServiceOf/For: ai/toolContext (the tools' context is built on a client), jobs/runOnGpuCommand (Run on
 * GPU's resource), specs ×2 (the spec context is built on a client).
 */
const MAX_CLIENT_SITES = 4;

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

  it(`reaches the client itself at most ${MAX_CLIENT_SITES} times outside client/ and requests/`, () => {
    const outside = sites(new Map([...sources].filter(([file]) => !CLIENT_ROOMS.test(file))), CLIENT_SITE);
    assert.ok(outside.length <= MAX_CLIENT_SITES, `${outside.length} sites: ${outside.join(', ')} — take the kind's service (client/computeServices.ts)`);
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
