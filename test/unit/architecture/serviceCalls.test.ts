// A service per kind (issue 28, CONTRIBUTING.md): the editor layer never names a platform operation to the
// client (`.call('task.pause', …)`): each kind's service in src/core does, and the UI, the agent tools and
// the MCP server call the services. Only client/ and requests/ reach the client itself (`computeClient()`).
// In src/core, a kind's operations are sent by its service, the store's listing of it and the few helpers
// those two share; the agent tools read the client only to build their services (tools/services.ts).
// The one exception by design is the request console (src/vscode/requests/): it signs and sends any
// operation the user picks or types, so it holds a client of its own and names no kind.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

/**
 * Where the editor layer may reach the active client: the provider and the services' factory (client/),
 * the services' declaration, and the request console (requests/: it signs and sends what the user typed).
 */
const CLIENT_ROOMS = /^src\/vscode\/(?:client\/|requests\/|services\.ts$|extensionServices\.ts$)/;

const OPERATION_CALL = /\.call\(\s*['"`]/g;
/** `send(client, 'op', …)` (core/state/servicePorts.ts) with the operation named. */
const OPERATION_SEND = /\bsend\(\s*[\w.()]+\s*,\s*['"`]/g;

/**
 * Where src/core may send a kind's operation: the client itself (compute/), each kind's service
 * (<kind>Service.ts) with its one call (`send`, state/servicePorts.ts) and the store's listing of the kind
 * (<kind>State.ts: what the one store polls).
 */
const CORE_SENDERS = /^src\/core\/(?:compute\/|state\/servicePorts\.ts$|.+Service\.ts$|.+State\.ts$)/;

/** The helpers services and listings share (they send too); their client-taking functions are called only from those. */
const SERVICE_HELPERS: Readonly<Record<string, string>> = {
  'src/core/tasks/listing.ts': 'the paged task, node and storage lists (TaskService, StorageService, the tasks listing)',
  'src/core/nas/volumes.ts': 'volume reads, create choices, the delete check, transfer create (VolumeService, TransferService, the volumes listing)',
  'src/core/jobs/polling.ts': "a job's pods (JobService.pods)",
  'src/core/jobs/nodeLogTail.ts': "a pod's log, read through the reader it is given (a service's nodeLog)",
};

/** An exported function whose first parameter is a client: it sends operations for its caller. */
const CLIENT_HELPER = /export\s+(?:async\s+)?function\s+(\w+)\s*(?:<[^>]*>)?\(\s*\w+\s*:\s*(?:ComputeClient|NasApi|ClientSource|Pick<ComputeClient)\b/g;

/** The factories that build services over a client: the editor's (client/) and the agent tools' (tools/services.ts). */
const SERVICE_FACTORIES = /^src\/(?:vscode\/client\/|core\/tools\/services\.ts$)/;

const mayCallClientHelpers = (file: string): boolean => CORE_SENDERS.test(file) || file in SERVICE_HELPERS || SERVICE_FACTORIES.test(file);

/** `file:line calls name` for each call of a client helper of src/core outside the services, listings and helpers. */
function clientHelperCalls(files: ReadonlyMap<string, string>): string[] {
  const helpers = new Set<string>();
  for (const [file, text] of files) {
    // The client's own module and the services' one call (`send`, caught by OPERATION_SEND) are not helpers.
    if (!file.startsWith('src/core/') || file.startsWith('src/core/compute/') || file === 'src/core/state/servicePorts.ts') continue;
    for (const match of text.matchAll(CLIENT_HELPER)) helpers.add(match[1]!);
  }
  if (helpers.size === 0) return [];
  // A call of the function itself, not a method of the same name (`this.ports.listNodes(`).
  const call = new RegExp(`(?<![.\\w])(${[...helpers].join('|')})\\s*\\(`, 'g');
  const outside = new Map([...files].filter(([file]) => !mayCallClientHelpers(file)));
  const found: string[] = [];
  for (const site of sites(outside, call)) {
    const [file, line] = site.split(':');
    const text = outside.get(file!)!.split('\n')[Number(line) - 1]!;
    // A declaration of the same name elsewhere (`function taskPage(`) is not a call of the helper.
    if (!/\bfunction\s/.test(text)) found.push(site);
  }
  return found;
}
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
const core = readSources(typeScriptFiles('src/core'));
const everything = readSources(typeScriptFiles('src'));

describe('the editor layer calls services, not operations', () => {
  it("names no operation to a client (no .call('…') in src/vscode)", () => {
    assert.deepEqual([...sites(sources, OPERATION_CALL), ...sites(sources, OPERATION_SEND)].sort(), [], "add the operation to its kind's service in src/core/<area>/ and call that");
  });

  it('reaches the client itself only in client/ and requests/', () => {
    const outside = sites(new Map([...sources].filter(([file]) => !CLIENT_ROOMS.test(file))), CLIENT_SITE);
    assert.deepEqual(outside, [], "take the kind's service, or a client source from the composition root (client/computeServices.ts)");
  });

  it("sends a kind's operations in src/core only from its service, the store's listing and their shared helpers", () => {
    const outside = new Map([...core].filter(([file]) => !CORE_SENDERS.test(file) && !(file in SERVICE_HELPERS)));
    assert.deepEqual([...sites(outside, OPERATION_CALL), ...sites(outside, OPERATION_SEND)].sort(), [], "add the operation to its kind's service (src/core/<area>/<kind>Service.ts) and call that");
    for (const helper of Object.keys(SERVICE_HELPERS)) assert.ok(sites(new Map([[helper, core.get(helper) ?? '']]), OPERATION_CALL).length > 0, `${helper} sends nothing now: drop it from SERVICE_HELPERS`);
  });

  it('calls the helpers that take a client only from the services, the listings and the helpers themselves', () => {
    assert.deepEqual(clientHelperCalls(everything), [], "call the kind's service (the agent tools: tools/services.ts) instead of handing it a client");
  });

  it('the agent tools read the client only to build their services (tools/services.ts)', () => {
    const tools = new Map([...readSources(typeScriptFiles('src/core/tools'))].filter(([file]) => file !== 'src/core/tools/services.ts'));
    assert.deepEqual(sites(tools, /\.client\b/g), [], "take the kind's service from tools/services.ts (tasksOf, volumesOf, machinesOf, …)");
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
    assert.deepEqual(sites(new Map([['src/core/x/y.ts', "await send(this.client, 'nas.expand', {});\nsend(message);"]]), OPERATION_SEND), ['src/core/x/y.ts:1']);
    const helpers = new Map([
      ['src/core/x/reads.ts', 'export async function readAll(client: ComputeClient, signal?: AbortSignal) {}\nexport function pure(value: number) {}'],
      ['src/core/x/xService.ts', 'readAll(this.client());'],
      ['src/core/x/xState.ts', 'readAll(client);'],
      ['src/core/tools/t.ts', 'await readAll(context.client);\npure(1);\nawait this.ports.readAll(1);'],
      ['src/vscode/v.ts', 'function readAll(x: number) {}'],
    ]);
    assert.deepEqual(clientHelperCalls(helpers), ['src/core/tools/t.ts:1']);
  });
});
