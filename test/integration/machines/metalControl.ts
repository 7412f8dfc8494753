// The sandbox's bare-metal controls (test/sandbox/control.ts) as the machine in-host suites call them:
// a product to rent, a group, a dropped connection. A refused control fails the test at once.
import * as assert from 'node:assert/strict';
import { sandboxUrl } from '../sandboxInfo';

export async function metalControl(action: string, body: object): Promise<unknown> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/metal/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200);
  return response.json();
}
