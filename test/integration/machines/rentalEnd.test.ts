// A rental that ends while the editor is connected (docs/machines.md "Connecting from the editor"), inside a real
// VS Code against the sandbox: the open terminal says the rental ended — once, no retry loop, nothing
// hangs — and a forwarded port says its connection was lost, offering Forward Again, which then says
// the rental ended instead of trying for ever.

import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { connectAsUser } from './connectAsUser';
import { metalControl } from './metalControl';
import { rentUntilServing } from './rentMachine';

const DEVICE = 9076;

describe('machines: a rental that ends while a terminal and a forward are open', () => {
  let api: ExtensionApi;
  const echo = createServer((socket) => socket.pipe(socket));

  before(async function () {
    this.timeout(PATIENCE_MS * 4);
    await computeWithSandbox();
    api = await extensionApi();
    await rentUntilServing(api, DEVICE);
    await connectAsUser(api, DEVICE);
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    echo.close();
    for (const record of api.machineConnect.terminals()) if (record.deviceId === DEVICE) record.terminal.dispose();
  });

  it('the terminal says the rental ended and stops; the forward says it was lost, and Forward Again says why it cannot', async function () {
    this.timeout(PATIENCE_MS * 3);
    const record = await api.machineConnect.openTerminal(DEVICE);
    assert.ok(record);
    await waitUntil('the prompt', () => record.state() === 'open' && record.text().includes('$ '));
    const forward = await api.machineConnect.forwardPort(DEVICE, (echo.address() as AddressInfo).port);
    assert.ok(forward);
    const mark = api.money.notificationCount();

    assert.deepEqual(await metalControl('end', { device_id: DEVICE }), { ended: true });

    await waitUntil('the terminal to say the rental ended', () => record.state() === 'gave-up' && /The rental of machine 9076 has ended:/.test(record.text()));
    assert.doesNotMatch(record.text(), /Press Enter to try again/, 'no retry is offered for an ended rental');
    assert.doesNotMatch(record.text(), /not Serving yet/);

    const lost = await waitUntil('the forward-lost warning', () => api.money.notificationsSince(mark).find((notice) => notice.kind === 'machineForwardLost'));
    assert.equal(lost.severity, 'warning');
    assert.match(lost.message, new RegExp(`port ${(echo.address() as AddressInfo).port} on .*\\(127\\.0\\.0\\.1:${forward.localPort}\\) stopped`));
    assert.deepEqual(lost.actions, ['Forward Again']);
    assert.ok(!api.machineConnect.forwards().some((item) => item.localPort === forward.localPort), 'the lost forward is no longer listed');

    // The log is a bounded tail: the words are looked for, not an offset. Only Forward Again logs them (the
    // terminal says them in the terminal).
    assert.ok(!api.surface.logText().includes('Forward Port on Machine 9076'), 'no forward failure logged yet');
    await api.money.choose(lost, 'Forward Again');
    await waitUntil('Forward Again to say the rental ended', () => /Forward Port on Machine 9076: RentalEndedError: The rental of machine 9076 has ended/.test(api.surface.logText()));
    assert.ok(!api.machineConnect.forwards().some((item) => item.deviceId === DEVICE), 'nothing was forwarded again');
  });
});
