// The MCP server's environment: every missing or malformed value is named, all at once, never with a
// secret; keys are accepted inline or from a file in any encoding the core parser takes.

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { McpConfigError, readConfig } from '../../../src/mcp/config';
import { pemBlock } from '../../helpers/pemArmor';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const privatePkcs1Base64 = privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64');
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

function problems(env: Record<string, string>): string[] {
  try {
    readConfig(env);
  } catch (error) {
    assert.ok(error instanceof McpConfigError);
    return [...error.problems];
  }
  return [];
}

describe('MCP server configuration from the environment', () => {
  it('token mode needs only the token; defaults are the public addresses; writes off', () => {
    const config = readConfig({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456' });
    assert.equal(config.baseUrl, 'https://openapi.suanli.cn');
    assert.equal(config.modelBaseUrl, 'https://api.suanli.cn/v1');
    assert.deepEqual(config.credentials, { mode: 'token', token: 'tok-123456' });
    assert.equal(config.allowWrites, false);
    assert.equal(config.writesUnconfirmed, false);
  });

  it('sending changes without a per-call confirmation is an explicit opt-in that needs writes on', () => {
    assert.equal(readConfig({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456', COMPUTE_TOOLKIT_ALLOW_WRITES: '1', COMPUTE_TOOLKIT_WRITES_UNCONFIRMED: '1' }).writesUnconfirmed, true);
    assert.deepEqual(problems({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456', COMPUTE_TOOLKIT_WRITES_UNCONFIRMED: '1' }), ['COMPUTE_TOOLKIT_WRITES_UNCONFIRMED=1 needs COMPUTE_TOOLKIT_ALLOW_WRITES=1']);
    assert.deepEqual(problems({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456', COMPUTE_TOOLKIT_ALLOW_WRITES: '1', COMPUTE_TOOLKIT_WRITES_UNCONFIRMED: 'yes' }), [
      'COMPUTE_TOOLKIT_WRITES_UNCONFIRMED must be 1 (send changes without asking the user each time) or 0 (default)',
    ]);
  });

  it('rsa mode takes the keys inline or from files, in any accepted encoding', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-config-'));
    const keyFile = path.join(dir, 'key.pem');
    writeFileSync(keyFile, privatePem);
    const fromFile = readConfig({ COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_TOKEN: 't-1', COMPUTE_TOOLKIT_PRIVATE_KEY_FILE: keyFile, COMPUTE_TOOLKIT_ALLOW_WRITES: '1' });
    assert.equal(fromFile.credentials.privateKey, privatePem);
    assert.equal(fromFile.allowWrites, true);
    const inline = readConfig({ COMPUTE_TOOLKIT_MODE: 'RSA', COMPUTE_TOOLKIT_TOKEN: 't-1', COMPUTE_TOOLKIT_PRIVATE_KEY: privatePkcs1Base64, COMPUTE_TOOLKIT_PLATFORM_PUBLIC_KEY: publicPem });
    assert.equal(inline.credentials.mode, 'rsa');
    assert.equal(inline.credentials.platformPublicKey, publicPem);
    assert.ok(inline.secrets.includes(privatePkcs1Base64));
  });

  it('lists every problem at once, naming the variables', () => {
    const found = problems({
      COMPUTE_TOOLKIT_BASE_URL: 'http://example.com',
      COMPUTE_TOOLKIT_MODE: 'hmac',
      COMPUTE_TOOLKIT_ALLOW_WRITES: 'yes',
    });
    assert.equal(found.length, 4, found.join('\n'));
    assert.match(found[0]!, /^COMPUTE_TOOLKIT_BASE_URL uses plain http/);
    assert.match(found.join('\n'), /COMPUTE_TOOLKIT_MODE must be "token" or "rsa"/);
    assert.match(found.join('\n'), /COMPUTE_TOOLKIT_TOKEN is required/);
    assert.match(found.join('\n'), /COMPUTE_TOOLKIT_ALLOW_WRITES must be 1/);
  });

  it('refuses base URLs the clients would refuse later, naming the variable and not the value', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ COMPUTE_TOOLKIT_BASE_URL: 'https://127.0.0.1/?token=qsecretq' }, /^COMPUTE_TOOLKIT_BASE_URL must not contain a query/],
      [{ COMPUTE_TOOLKIT_BASE_URL: 'https://127.0.0.1/#fsecretf' }, /^COMPUTE_TOOLKIT_BASE_URL must not contain a query \(\?…\) or fragment/],
      [{ COMPUTE_TOOLKIT_MODEL_BASE_URL: 'https://127.0.0.1/v1?k=qsecretq' }, /^COMPUTE_TOOLKIT_MODEL_BASE_URL must not contain a query/],
      [{ COMPUTE_TOOLKIT_BASE_URL: 'https://u:psecretp@127.0.0.1/' }, /^COMPUTE_TOOLKIT_BASE_URL must not contain a user name or password/],
      [{ COMPUTE_TOOLKIT_BASE_URL: 'nsecretn' }, /^COMPUTE_TOOLKIT_BASE_URL is not a valid URL/],
    ];
    for (const [env, expected] of cases) {
      const found = problems({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456', ...env });
      assert.equal(found.length, 1, found.join('\n'));
      assert.match(found[0]!, expected);
      assert.ok(!/[qfpn]secret[qfpn]/.test(found[0]!), found[0]);
    }
  });

  it('refuses a token or model API key no request can carry, without repeating it', () => {
    const token = problems({ COMPUTE_TOOLKIT_TOKEN: 'tok-abcdef\r\nX-Evil: 1' });
    assert.match(token.join(), /^COMPUTE_TOOLKIT_TOKEN: The API token contains a line break \(CR or LF\)/);
    assert.ok(!token.join().includes('abcdef'));
    assert.match(problems({ COMPUTE_TOOLKIT_TOKEN: 'tok-令牌-123' }).join(), /^COMPUTE_TOOLKIT_TOKEN: .*printable ASCII/);
    assert.match(problems({ COMPUTE_TOOLKIT_TOKEN: 'tok-123456', COMPUTE_TOOLKIT_MODEL_API_KEY: 'sk-a\nb' }).join(), /^COMPUTE_TOOLKIT_MODEL_API_KEY: The model API key contains a line break/);
  });

  it('the message is one line', () => {
    try {
      readConfig({ COMPUTE_TOOLKIT_MODE: 'x', COMPUTE_TOOLKIT_ALLOW_WRITES: 'y' });
      assert.fail('expected a configuration error');
    } catch (error) {
      assert.ok(error instanceof McpConfigError);
      assert.ok(!error.message.includes('\n'), error.message);
      assert.match(error.message, /^Compute Toolkit MCP server: invalid configuration: .*COMPUTE_TOOLKIT_MODE.*; .*COMPUTE_TOOLKIT_TOKEN/);
    }
  });

  it('rsa mode without a key, with both forms, or with a missing file', () => {
    assert.match(problems({ COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_TOKEN: 't' }).join(), /needs COMPUTE_TOOLKIT_PRIVATE_KEY or COMPUTE_TOOLKIT_PRIVATE_KEY_FILE/);
    assert.match(
      problems({ COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_TOKEN: 't', COMPUTE_TOOLKIT_PRIVATE_KEY: privatePem, COMPUTE_TOOLKIT_PRIVATE_KEY_FILE: '/x' }).join(),
      /not both/,
    );
    assert.match(problems({ COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_TOKEN: 't', COMPUTE_TOOLKIT_PRIVATE_KEY_FILE: '/nonexistent/key.pem' }).join(), /cannot be read \(ENOENT\)/);
  });

  it('a malformed or swapped key is named, and no message contains key material', () => {
    const body = 'U0VDUkVUU0VDUkVUU0VDUkVUU0VDUkVUU0VDUkVUU0VDUkVU';
    const swapped = problems({ COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_TOKEN: 'secret-token-value', COMPUTE_TOOLKIT_PRIVATE_KEY: publicPem });
    assert.equal(swapped.length, 1);
    assert.match(swapped[0]!, /^COMPUTE_TOOLKIT_PRIVATE_KEY: /);
    const broken = problems({ COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_TOKEN: 'secret-token-value', COMPUTE_TOOLKIT_PRIVATE_KEY: pemBlock('PRIVATE KEY', body) });
    const all = [...swapped, ...broken].join('\n');
    assert.ok(!all.includes(body) && !all.includes('secret-token-value'));
    for (const line of publicPem.split('\n').filter((l) => l.length > 40)) assert.ok(!all.includes(line));
  });
});
