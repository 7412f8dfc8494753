// Connect… on a Serving sandbox machine answered as a user would the first time: trust the host key shown,
// generate a key for this machine. Later connections log in by that key.

import * as assert from 'node:assert/strict';
import type { ExtensionApi } from '../../../src/vscode/api';
import { answerFlow, isPick } from '../nas/answerFlow';

export async function connectAsUser(api: ExtensionApi, device: number): Promise<void> {
  const connected = await answerFlow(api, () => api.machineConnect.connect(device), (input) => {
    const wanted = isPick(input) ? input.items.find((item) => /^(Trust this host key and connect|Generate a key for this machine)$/.test(item.label)) : undefined;
    if (wanted && isPick(input)) input.activeItems = [wanted];
  });
  assert.equal(connected, true, `Connect… to machine ${device}`);
}
