// The request debugger against the sandbox: Send Signed Request shows status, masked headers, timing and
// body for failures too; the redacted history replays a request re-signed with a fresh timestamp and
// copies it as curl; Compare with a Failing Request finds a planted difference.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExchangeRecord, PreparedRequest } from '../../../src/core/compute/api';
import type { SignComparison } from '../../../src/core/requests/signCompare';
import { maskSecret } from '../../../src/core/log';
import type { ExtensionApi } from '../../../src/vscode/api';
import { HISTORY_STATE_KEY } from '../../../src/vscode/requests/requestHistory';
import { clearFaults, injectFault, type SandboxInfo } from '../sandboxInfo';
import { connectedApi, sandboxSecrets } from './surfaceApi';

interface SendResult {
  ok: boolean;
  data: unknown;
  text: string;
  exchanges: ExchangeRecord[];
  uri: vscode.Uri;
  historyId?: string;
}

const SEARCH = { operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'GpuDevice' } };
/**
 * The faulted requests ask for CPU devices, and the faults match that exact query: the extension's own
 * background calls to the same path (the Resources view, the burn rate's prices) cannot take them.
 */
const FAULTED_SEARCH = { operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'CpuDevice' } };
const FAULTED_PREFIX = '/api/deployment/resource/search?task_type=Deployment&device_type=CpuDevice';

async function send(argument: unknown): Promise<SendResult> {
  const result = (await vscode.commands.executeCommand('computeToolkit.request.send', argument)) as SendResult | undefined;
  assert.ok(result, 'Send Signed Request returned nothing (its error went to a notification: see the log)');
  return result;
}

describe('surface: request debugger', () => {
  let api: ExtensionApi;
  let sandbox: SandboxInfo;
  let token: string;

  before(async () => {
    ({ api, sandbox } = await connectedApi());
    token = sandbox.bootstrap.credentials.rsaMode.token;
  });

  afterEach(() => clearFaults());

  function assertNoSecret(text: string, where: string): void {
    for (const secret of sandboxSecrets(sandbox)) assert.ok(!text.includes(secret), `a secret appears in ${where}`);
  }

  it('a success: the response document shows status, masked headers, timing and the body', async () => {
    const result = await send(SEARCH);
    assert.equal(result.ok, true);
    assert.match(result.text, /- Status: HTTP 200/);
    assert.match(result.text, /\d+ ms in 1 attempt/);
    assert.ok(result.text.includes(`token: ${maskSecret(token)}`), 'the masked token header is missing');
    assert.match(result.text, /## Response headers[\s\S]*content-type: application\/json/i);
    assert.ok(result.text.includes('"results"'), 'the body is missing');
    assertNoSecret(result.text, 'the response document');
  });

  it('an envelope failure: status, masked headers, the body and the diagnosis', async () => {
    await injectFault({ target: 'compute', kind: 'envelope', code: 'C001', message: 'sign error', pathPrefix: FAULTED_PREFIX });
    const result = await send(FAULTED_SEARCH);
    assert.equal(result.ok, false);
    assert.match(result.text, /- Status: HTTP 200/);
    assert.match(result.text, /C001/);
    assert.match(result.text, /- Likely cause \(/);
    assert.ok(result.text.includes(`token: ${maskSecret(token)}`));
    assert.match(result.text, /## Response body[\s\S]*"sign error"/);
    assertNoSecret(result.text, 'the failure document');
  });

  it('an HTML error page after retries: every attempt, and the page as a capped excerpt', async () => {
    await injectFault({ target: 'compute', kind: 'html', status: 502, count: 10, pathPrefix: FAULTED_PREFIX });
    const result = await send(FAULTED_SEARCH);
    assert.equal(result.ok, false);
    assert.ok(result.exchanges.length > 1, 'the retries are not shown');
    assert.match(result.text, /- Status: HTTP 502/);
    assert.match(result.text, /An HTML page \(not the platform envelope\)/);
    assert.match(result.text, /## Attempts/);
    const timestamps = new Set(result.exchanges.map((exchange) => exchange.request.timestamp));
    assert.equal(timestamps.size, result.exchanges.length, 'an attempt reused a timestamp');
  });

  it('a timeout: the document says no answer came, and why', async () => {
    const config = vscode.workspace.getConfiguration('computeToolkit.request');
    await config.update('timeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      await injectFault({ target: 'compute', kind: 'latency', delayMs: 2500, pathPrefix: FAULTED_PREFIX });
      const result = await send(FAULTED_SEARCH);
      assert.equal(result.ok, false);
      assert.match(result.text, /- Status: no answer/);
      assert.ok(result.exchanges[0]?.failure, 'the failure of the attempt is missing');
      assert.match(result.text, /## Response body\n\nNo body: /);
      assert.ok(result.text.includes(`token: ${maskSecret(token)}`), 'the request headers are missing');
    } finally {
      await config.update('timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the history keeps the request without secrets; replay re-signs it with a fresh timestamp', async () => {
    const first = await send(SEARCH);
    assert.ok(first.historyId, 'no history entry was recorded');
    const stored = JSON.stringify(api.services.context.globalState.get(HISTORY_STATE_KEY));
    assert.ok(stored.includes(first.historyId));
    assertNoSecret(stored, 'the stored history');
    assert.ok(!stored.includes('sign_str'), 'a signature header was stored');

    const replayed = (await vscode.commands.executeCommand('computeToolkit.request.replay', first.historyId)) as SendResult | undefined;
    assert.ok(replayed, 'replay returned nothing');
    assert.equal(replayed.ok, true);
    const before = first.exchanges[0]?.request.timestamp;
    const after = replayed.exchanges[0]?.request.timestamp;
    assert.ok(before && after && Number(after) > Number(before), `the replay was not re-signed with a fresh timestamp (${before} → ${after})`);
  });

  it('Copy as curl: a script with the token and signature as shell variables', async () => {
    const sent = await send(SEARCH);
    const script = (await vscode.commands.executeCommand('computeToolkit.request.copyCurl', sent.historyId)) as string | undefined;
    assert.ok(script, 'copy as curl returned nothing');
    assert.ok(script.includes('"token: $COMPUTE_TOKEN"') && script.includes('"sign_str: $SIGN_STR"'));
    assert.ok(script.includes('/api/deployment/resource/search'));
    assert.equal(await vscode.env.clipboard.readText(), script);
    assertNoSecret(script, 'the curl script');
  });

  it('Compare finds a planted difference: a numeric version, then CR LF separators', async () => {
    const signed = (await vscode.commands.executeCommand('computeToolkit.request.sign', SEARCH)) as { prepared: PreparedRequest } | undefined;
    const display = signed?.prepared.stringToSignForDisplay;
    assert.ok(display, 'Sign Request gave no string to sign');
    const compare = async (pasted: string): Promise<{ comparison: SignComparison; text: string }> => {
      const result = (await vscode.commands.executeCommand('computeToolkit.request.compare', { pasted, request: SEARCH })) as
        | { comparison: SignComparison; text: string }
        | undefined;
      assert.ok(result, 'compare returned nothing');
      return result;
    };
    const clean = await compare(display);
    assert.equal(clean.comparison.first, undefined, `a difference in our own string: ${clean.comparison.first?.explanation ?? ''}`);
    const numeric = await compare(display.replace('\n1.0.0\n', '\n1\n'));
    assert.equal(numeric.comparison.first?.kind, 'version-numeric');
    assert.match(numeric.text, /## First difference[\s\S]*\*\*version\*\* \(version as a number\): The version is "1"/);
    const crlf = await compare(display.split('\n').join('\r\n'));
    assert.equal(crlf.comparison.first?.kind, 'separator');
    assertNoSecret(crlf.text, 'the comparison');
  });
});
