// Machine terminals after an editor restart, in a real VS Code (docs/machines.md "Connecting from the
// editor"): an open machine terminal is stored in the window's workspaceState (no secret in it); a window's
// close keeps it stored, and the restore that activation runs opens it again by key (the key and the pinned
// host key from SecretStorage, nothing asked) with a working shell; a terminal the user closes is
// forgotten; a stored terminal whose machine is no longer rented is not reopened, and the user is told why.
// A real restart cannot happen inside the test host: `restartTerminals` closes the terminals as a window's
// close does (their entries stay), then runs the activation's restore. A terminal left open across a switch
// of the active profile reconnects with its own profile's key and pinned host key.

import * as assert from 'node:assert/strict';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { connectAsUser } from './connectAsUser';
import { metalControl } from './metalControl';

// Device ids no other suite uses: one rented and connected, one never rented.
const DEVICE = 9352;
const NOT_RENTED = 9398;
const KEY = 'computeToolkit.machines.terminals';

describe('machines: terminals come back after an editor restart', () => {
  let api: ExtensionApi;
  let profileId: string;
  const stored = (): unknown => api.services.context.workspaceState.get(KEY);
  const storedFor = (deviceId: number): unknown[] => (Array.isArray(stored()) ? (stored() as { deviceId?: unknown }[]).filter((entry) => entry.deviceId === deviceId) : []);
  const recordsOf = (deviceId: number) => api.machineConnect.terminals().filter((record) => record.deviceId === deviceId);

  before(async function () {
    this.timeout(PATIENCE_MS * 4);
    await computeWithSandbox();
    api = await extensionApi();
    const active = api.services.profiles.active;
    assert.ok(active);
    profileId = active.id;
    await metalControl('product', { device_id: DEVICE });
    const service = new MachineService(api.surface.createComputeClient({}));
    const product = (await service.singles('Hour')).find((item) => item.device_id === DEVICE);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(DEVICE, { pollMs: 50, timeoutMs: PATIENCE_MS });
    await api.machines.refresh();
    await connectAsUser(api, DEVICE);
  });

  it('an open terminal is stored, reopened by key after a restart with a working shell, and forgotten once the user closes it', async function () {
    this.timeout(PATIENCE_MS * 4);
    const first = await api.machineConnect.openTerminal(DEVICE);
    assert.ok(first);
    await waitUntil('the first prompt', () => first.state() === 'open' && first.text().includes('$ '), { timeoutMs: PATIENCE_MS });
    assert.deepEqual(storedFor(DEVICE), [{ profileId, deviceId: DEVICE }], JSON.stringify(stored()));
    assert.doesNotMatch(JSON.stringify(stored()), /PRIVATE KEY|Pw-/, 'no secret is stored');

    const result = await api.machineConnect.restartTerminals();
    assert.deepEqual(result, { opened: [DEVICE], skipped: [] });
    assert.ok(!api.machineConnect.terminals().includes(first), 'the old terminal is gone');
    const again = await waitUntil('the terminal open again', () => recordsOf(DEVICE).find((record) => record.state() === 'open' && record.text().includes('$ ')), { timeoutMs: PATIENCE_MS * 2 });
    again.terminal.sendText('echo "restored-$((6*7))"');
    await waitUntil('the reopened shell to answer', () => again.text().includes('restored-42'), { timeoutMs: PATIENCE_MS });
    assert.deepEqual(storedFor(DEVICE), [{ profileId, deviceId: DEVICE }], 'stored once, as before the restart');
    assert.deepEqual(await api.machineConnect.restoreTerminals(), { opened: [], skipped: [] }, 'an open terminal is not opened twice');

    again.terminal.dispose();
    await waitUntil('the closed terminal forgotten', () => storedFor(DEVICE).length === 0, { timeoutMs: PATIENCE_MS });
    assert.deepEqual(await api.machineConnect.restoreTerminals(), { opened: [], skipped: [] });
  });

  it('a stored terminal whose machine is no longer rented is not reopened: the user is told why, and it is dropped', async function () {
    this.timeout(PATIENCE_MS * 2);
    await api.services.context.workspaceState.update(KEY, [{ profileId, deviceId: NOT_RENTED }, { profileId, deviceId: -1 }, 'damaged']);
    const refusals = api.surface.refusals().length;
    const result = await api.machineConnect.restoreTerminals();
    assert.deepEqual(result, { opened: [], skipped: [{ deviceId: NOT_RENTED, reason: 'ended' }] });
    const said = api.surface.refusals().slice(refusals).map((refusal) => refusal.message);
    assert.equal(said.length, 1, said.join('\n'));
    assert.match(said[0] ?? '', /^Machine terminals open before the restart were not all reopened\. Machine 9398: it is no longer Serving on this profile \(the rental ended\)\.$/);
    assert.deepEqual(storedFor(NOT_RENTED), []);
    assert.ok(Array.isArray(stored()) && (stored() as unknown[]).every((entry) => typeof entry === 'object'), 'the damaged entries are dropped');
    assert.equal(recordsOf(NOT_RENTED).length, 0);
  });

  it("a terminal left open across a profile switch reconnects with its own profile's key, not the active one's", async function () {
    this.timeout(PATIENCE_MS * 4);
    const record = await api.machineConnect.openTerminal(DEVICE);
    assert.ok(record);
    await waitUntil('the first prompt', () => record.state() === 'open' && record.text().includes('$ '), { timeoutMs: PATIENCE_MS });
    const owner = api.services.profiles.active;
    assert.ok(owner);
    assert.equal(record.profileId, owner.id);
    // Another profile on the same account: its key store has no key for the machine.
    const other = { ...owner, id: 'machines-test-other-profile', label: 'Other' };
    await api.surface.profiles.upsert(other);
    const token = await api.services.profiles.getSecret(owner.id, 'apiToken');
    if (token) await api.surface.profiles.setSecret(other.id, 'apiToken', token);
    await api.surface.profiles.setActive(other.id);
    try {
      assert.deepEqual(await metalControl('drop', { device_id: DEVICE }), { dropped: true });
      await waitUntil('the drop said in the terminal', () => /The connection to .* was lost/.test(record.text()), { timeoutMs: PATIENCE_MS });
      await waitUntil('the terminal open again', () => record.state() === 'open' || record.state() === 'gave-up', { timeoutMs: PATIENCE_MS * 2 });
      assert.equal(record.state(), 'open', record.text().slice(-2000));
      record.terminal.sendText('echo "kept-$((6*7))"');
      await waitUntil('the reconnected shell answers', () => record.text().includes('kept-42'), { timeoutMs: PATIENCE_MS });
    } finally {
      await api.surface.profiles.setActive(owner.id);
      await api.surface.profiles.remove(other.id);
      record.terminal.dispose();
    }
  });
});
