// Sign Request shows the string the core signs, byte for byte (token masked), for catalog operations,
// hand-written requests and encrypted bodies, and never shows a secret.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PreparedRequest } from '../../../src/core/compute/api';
import { stringToSign } from '../../../src/core/compute/index';
import { maskSecret } from '../../../src/core/log';
import type { ExtensionApi } from '../../../src/vscode/api';
import { wizardTitle } from '../../../src/vscode/requests/signRequestController';
import type { SandboxInfo } from '../sandboxInfo';
import { connectedApi, sandboxSecrets } from './surfaceApi';

interface SignResult {
  prepared: PreparedRequest;
  text: string;
  uri: vscode.Uri;
}

async function signRequest(argument: unknown): Promise<SignResult> {
  const result = (await vscode.commands.executeCommand('computeToolkit.request.sign', argument)) as SignResult | undefined;
  assert.ok(result, 'Sign Request returned nothing (its error went to a notification: see the log)');
  return result;
}

describe('surface: Sign Request', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;
  let token: string;

  before(async () => {
    ({ api, sandbox } = await connectedApi());
    token = sandbox.bootstrap.credentials.rsaMode.token;
  });

  /** The core's string to sign for what was prepared, with the token masked as the display masks it. */
  function expectedDisplay(prepared: PreparedRequest): string {
    const exact = stringToSign({
      path: prepared.pathWithQuery,
      version: prepared.version,
      timestamp: prepared.timestamp,
      token,
      body: prepared.body,
    });
    return exact.split(token).join(maskSecret(token));
  }

  function assertNoSecret(text: string): void {
    for (const secret of sandboxSecrets(sandbox)) assert.ok(!text.includes(secret), 'a secret appears in the Sign Request output');
    assert.ok(!text.includes('PRIVATE KEY'), 'the private key appears in the Sign Request output');
  }

  it('a catalog POST: the document holds the core string to sign, labelled, with visible \\n, hex and self-check', async () => {
    const { prepared, text, uri } = await signRequest({ operation: 'task.detail', params: { task_id: 4242 } });
    assert.equal(prepared.mode, 'rsa');
    assert.equal(prepared.body, '{"task_id":4242}');
    assert.equal(prepared.stringToSignForDisplay, expectedDisplay(prepared));
    assert.ok(text.includes(JSON.stringify(expectedDisplay(prepared))), 'the JSON literal of the string to sign is missing');
    assert.ok(text.includes(`${prepared.pathWithQuery}\\n`), 'the path line with a visible \\n marker is missing');
    assert.ok(text.includes(`${prepared.timestamp}\\n`), 'the timestamp line with a visible \\n marker is missing');
    assert.match(text, /^00000000 {2}2f 61 70 69/m); // hex dump starts with "/api"
    assert.match(text, /Self-verification: passed/);
    assert.match(text, /\$COMPUTE_TOKEN/);
    assert.equal(prepared.selfVerified, true);
    assert.equal(uri.scheme, 'compute-toolkit');
    const shown = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    assert.equal(shown?.getText(), text, 'the open document differs from the returned text');
    assertNoSecret(text);
  });

  it('a hand-written GET: the query is encoded once and signed exactly as it is sent', async () => {
    const { prepared, text } = await signRequest({
      raw: { method: 'GET', path: '/api/deployment/task/search', query: [['search_value', "a b'c/ü"], ['page', '1']] },
    });
    assert.equal(prepared.pathWithQuery, '/api/deployment/task/search?search_value=a%20b%27c%2F%C3%BC&page=1');
    assert.ok(prepared.url.endsWith(prepared.pathWithQuery));
    assert.equal(prepared.body, '');
    const display = expectedDisplay(prepared);
    assert.equal(prepared.stringToSignForDisplay, display);
    assert.ok(display.endsWith('\n'), 'an empty body keeps the last separator');
    assert.ok(text.includes(JSON.stringify(display)));
    assert.match(text, /body\s+\(empty string\)/);
  });

  it('an encrypted body: the Base64 ciphertext is signed, the plaintext is shown with secret fields masked', async () => {
    const secretKey = 'surface-secret-key-value-0123456789';
    const { prepared, text } = await signRequest({
      operation: 'storage.encryptCheck',
      params: {
        storage_name: 'bucket-a',
        juicefs_region_id: 1,
        bucket: 'models',
        dir: '/data',
        endpoint: 'oss.example.com',
        access_key: 'surface-access-key-0123456789',
        secret_key: secretKey,
      },
    });
    assert.equal(prepared.encrypted, true);
    assert.match(prepared.body, /^[A-Za-z0-9+/]+=*$/, 'the body sent is not one Base64 string');
    assert.equal(prepared.stringToSignForDisplay, expectedDisplay(prepared));
    assert.ok(prepared.plaintextBody?.includes('"bucket":"models"'));
    assert.ok(!text.includes(secretKey), 'the storage secret key appears in the output');
    assert.ok(text.includes('Plaintext before encryption'));
  });

  it('re-running refreshes the same document instead of opening another', async () => {
    const first = await signRequest({ operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'GpuDevice' } });
    const second = await signRequest({ operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'GpuDevice' } });
    assert.equal(second.uri.toString(), first.uri.toString());
    assert.notEqual(second.prepared.timestamp, first.prepared.timestamp, 'a timestamp was reused');
    assert.equal(api.surface.documentText('sign-request', 'Sign Request.md'), second.text);
  });

  it('Send Signed Request returns the platform data and shows it in the response document', async () => {
    const result = (await vscode.commands.executeCommand('computeToolkit.request.send', {
      operation: 'resource.search',
      params: { task_type: 'Deployment', device_type: 'GpuDevice' },
    })) as { data: { results?: unknown[] }; uri: vscode.Uri } | undefined;
    assert.ok(result, 'Send Signed Request returned nothing (see the log)');
    assert.ok(Array.isArray(result.data.results) && result.data.results.length > 0);
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === result.uri.toString());
    assert.equal(document?.languageId, 'markdown');
    const body = /## Response body\n\n`{3,}json\n([\s\S]*?)\n`{3,}/.exec(document?.getText() ?? '')?.[1];
    assert.ok(body, 'the response body block is missing');
    assert.deepEqual((JSON.parse(body) as { data: unknown }).data, result.data);
  });

  it('the request wizard names the profile and its mode, which decide what gets signed', () => {
    assert.equal(wizardTitle('Sign Request', { label: 'Sandbox (token)', mode: 'token', environment: 'sandbox' }), 'Sign Request with "Sandbox (token)" (token mode)');
    assert.equal(wizardTitle('Send Signed Request', { label: 'Live', mode: 'rsa', environment: 'prod' }), 'Send Signed Request with "Live" (RSA mode, PRODUCTION)');
  });
});
