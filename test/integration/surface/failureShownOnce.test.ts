// One failure is shown once: when every view fails for the same diagnosed reason (here a private key
// the platform does not hold), each view keeps a one-line message and a short error row; the whole
// explanation (the likely cause) is in the row's tooltip and in one notification, not in every view.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { ComputeViewName } from '../../../src/vscode/views/index';
import { RSA_PROFILE, connectedApi } from './surfaceApi';

const VIEWS: ComputeViewName[] = ['resources', 'tasks', 'storage'];

describe('surface: one failure shown once', () => {
  let api: ExtensionApi;

  before(async () => {
    ({ api } = await connectedApi());
  });

  after(async () => {
    ({ api } = await connectedApi()); // back to the sandbox's real credentials
  });

  it('three views failing for one cause keep short messages; the likely cause is not repeated in each', async function () {
    this.timeout(180_000);
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await api.surface.profiles.setSecret(RSA_PROFILE, 'privateKey', privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    for (const view of VIEWS) {
      await api.compute.refresh(view);
      const snapshot = await api.compute.snapshot(view);
      const message = snapshot.message ?? '';
      assert.match(message, /failed/, `${view}: no failure message`);
      assert.ok(!/Likely cause/i.test(message), `${view}: the view message repeats the whole diagnosis: ${message}`);
      assert.ok(message.length <= 200, `${view}: a ${message.length}-character view message`);
      const row = snapshot.rows.find((candidate) => candidate.contextValue === 'error');
      if (row) {
        assert.ok((row.description ?? '').length <= 60, `${view}: a long row description`);
        assert.match(row.tooltip ?? '', /Likely cause/, `${view}: the row's tooltip should hold the whole explanation`);
      }
    }
  });
});
