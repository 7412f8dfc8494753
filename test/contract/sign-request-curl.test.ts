import '../unit/helpers/englishL10n';
// Sign Request's curl recipe is run as a user would run it (bash, openssl, curl) against the strict
// sandbox: for hand-written paths and queries with non-ASCII characters, spaces and reserved characters
// the recipe must send exactly the bytes that were signed, and the sandbox must accept the signature.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, RawRequest } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { renderSignRequest } from '../../src/vscode/requests/renderSignRequest';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const HAVE_TOOLS = ['bash', 'curl', 'openssl'].every((tool) => spawnSync('which', [tool]).status === 0);

/** The `sh` block of the rendered document: the recipe a user copies. */
function recipeOf(document: string): string {
  const match = /```+sh\n([\s\S]*?)\n```+/.exec(document);
  assert.ok(match?.[1], 'no sh block in the Sign Request document');
  return match[1];
}

describe('Sign Request curl recipe, run against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let workDir: string;

  before(async () => {
    assert.ok(HAVE_TOOLS, 'bash, curl and openssl are needed to run the recipe');
    sandbox = await startSandbox({ pendingMs: 0 });
    const rsa = sandbox.credentials.rsaMode;
    client = createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => ({ mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem }),
    });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sign-request-curl-'));
    fs.writeFileSync(path.join(workDir, 'private-key.pem'), rsa.privateKeyPem, { mode: 0o600 });
  });
  after(async () => {
    fs.rmSync(workDir, { recursive: true, force: true });
    await sandbox.close();
  });

  /** Renders the document for `request`, runs its recipe, and returns what curl printed and what was signed. */
  async function runRecipe(request: RawRequest): Promise<{ answer: string; signedPath: string; receivedPath: string | undefined }> {
    const prepared = await client.prepareRaw(request);
    const document = renderSignRequest({
      title: 'contract test',
      profile: { id: 'p', label: 'Sandbox', environment: 'sandbox', mode: 'rsa', computeBaseUrl: sandbox.computeBaseUrl, modelApiBaseUrl: '', consoleUrl: '' },
      prepared,
      skew: { ok: false, error: 'not measured' },
      generatedAt: new Date(),
    });
    // The recipe's first line is the placeholder the user replaces with their token.
    const recipe = recipeOf(document).replace(/^export COMPUTE_TOKEN='<your API token>'$/m, `export COMPUTE_TOKEN='${sandbox.credentials.rsaMode.token}'`);
    const before = sandbox.requests.length;
    // Asynchronously: the sandbox answers from this process's event loop.
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', ['-euo', 'pipefail', '-c', `${recipe} --silent --show-error`], { cwd: workDir, encoding: 'utf8', timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    assert.equal(result.code, 0, `the recipe failed: ${result.stderr}`);
    const received = sandbox.requests.length > before ? sandbox.requests[0]?.path : undefined;
    return { answer: result.stdout, signedPath: prepared.pathWithQuery, receivedPath: received };
  }

  const queries: [string, [string, string][]][] = [
    ['non-ASCII', [['type', 'Deployment'], ['status', 'Running,End'], ['search_value', '测试-модель-é']]],
    ['spaces', [['type', 'Deployment'], ['status', 'Running,End'], ['search_value', 'my task  two']]],
    ['reserved characters', [['type', 'Deployment'], ['status', 'Running,End'], ['search_value', "a&b=c?d/e#f[g]{h}!'()*+,;:@$%"]]],
  ];
  for (const [what, query] of queries) {
    it(`a query with ${what}: the sandbox verifies the recipe's signature and answers`, async () => {
      const { answer, signedPath, receivedPath } = await runRecipe({ method: 'GET', path: '/api/deployment/task/search', query });
      assert.equal(receivedPath, signedPath, 'curl sent other bytes than were signed');
      const envelope = JSON.parse(answer) as { code: string; message: string };
      assert.equal(envelope.code, '0000', `the sandbox refused the recipe: ${envelope.code} ${envelope.message}`);
    });
  }

  for (const [what, rawPath] of [
    ['non-ASCII', '/api/deployment/任务/详情'],
    ['spaces', '/api/deployment/my task'],
    ['reserved characters', "/api/deployment/a[1]{2}!'()*@:$,;="],
  ] as const) {
    it(`a path with ${what}: curl sends exactly the signed bytes`, async () => {
      const { signedPath, receivedPath } = await runRecipe({ method: 'GET', path: rawPath });
      assert.equal(receivedPath, signedPath);
      assert.match(signedPath, /^[\x21-\x7e]+$/, 'the signed path is not the percent-encoded form that travels');
    });
  }
});
