// Shared set-up for the compute suites: the extension's ComputeApi with the sandbox as active profile,
// and a bounded "refresh until the rows say so" wait (no sleeps used as assertions).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, extensionApi } from '../extensionApi';
import type { ComputeApi, ComputeViewName, TreeRow, ViewSnapshot } from '../../../src/vscode/views/index';
import { sandboxUrl } from '../sandboxInfo';
import { nextEvent } from '../events';
import { PATIENCE_MS } from '../../helpers/eventually';


let connected: Promise<ComputeApi> | undefined;


/** Activates the extension once, makes the sandbox the active profile, and returns the compute API. */
export function computeWithSandbox(): Promise<ComputeApi> {
  connected ??= (async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('computeToolkit.profile.connectSandbox', sandboxUrl());
    const active = api.services.profiles.active;
    assert.ok(active, 'connecting to the sandbox should leave an active profile');
    assert.ok(active.computeBaseUrl.startsWith(sandboxUrl()), `active profile ${active.computeBaseUrl} is not the sandbox ${sandboxUrl()}`);
    return api.compute;
  })();
  return connected;
}

/** Depth-first search of snapshot rows. */
export function findRow(rows: readonly TreeRow[], predicate: (row: TreeRow) => boolean): TreeRow | undefined {
  for (const row of rows) {
    if (predicate(row)) return row;
    const inChildren = row.children ? findRow(row.children, predicate) : undefined;
    if (inChildren) return inChildren;
  }
  return undefined;
}

/**
 * Refreshes `view` until `predicate` holds, with a short pause between, up to PATIENCE_MS (the sandbox
 * moves tasks Pending → Running after ~3 s; far longer on a busy machine). Fails with the last rows seen.
 */
export async function refreshUntil(
  compute: ComputeApi,
  view: ComputeViewName,
  predicate: (snapshot: ViewSnapshot) => boolean,
  options: { depth?: number; what: string },
): Promise<ViewSnapshot> {
  // A deadline, not a count of refreshes: on a busy machine each refresh takes longer.
  const deadline = Date.now() + PATIENCE_MS;
  let last: ViewSnapshot | undefined;
  let attempts = 0;
  for (; attempts === 0 || Date.now() < deadline; attempts++) {
    await compute.refresh(view);
    last = await compute.snapshot(view, { depth: options.depth ?? 1 });
    if (predicate(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.fail(`${options.what}: not reached after ${attempts} refreshes; last rows: ${JSON.stringify(last?.rows.map((row) => [row.label, row.contextValue]))}, message: ${last?.message ?? '(none)'}`);
}

/** Waits for the next onDidRefresh of `view` (bounded by mocha's test timeout). */
export async function nextRefresh(compute: ComputeApi, view: ComputeViewName): Promise<void> {
  await nextEvent(compute.onDidRefresh, (refreshed) => refreshed === view);
}

export { EXTENSION_ID, extensionApi };
