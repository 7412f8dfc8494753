import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../../src/core/errors';
import { assertSecureUrl, isLoopbackHost, joinUrl } from '../../../src/core/http/url';

describe('assertSecureUrl', () => {
  it('never repeats a password or user name in its errors, for valid and invalid URLs', () => {
    const password = `pw${Math.random().toString(36).slice(2, 12)}`;
    const inputs = [
      `https://alice:${password}@exa mple.com`,
      `https://alice:${password}@`,
      `alice:${password}@example.com`,
      `https://alice:${password.slice(0, 4)}/${password.slice(4)}@example.com`,
      `ftp://alice:${password}@example.com`,
      `http://alice:${password}@example.com`,
      `https://alice:${password}@example.com`,
      `  https://alice:${password}@[bad`,
    ];
    for (const url of inputs) {
      assert.throws(
        () => assertSecureUrl(url),
        (e: unknown) => {
          assert.ok(e instanceof ConfigError, url);
          const shown = `${e.message} ${e.hint ?? ''}`;
          assert.ok(!shown.includes(password.slice(0, 6)) && !shown.includes(password.slice(-6)), `${url} → ${shown}`);
          assert.ok(!shown.includes('alice'), `${url} → ${shown}`);
          return true;
        },
        url,
      );
    }
  });

  it('accepts https anywhere and http on loopback only', () => {
    for (const url of ['https://openapi.suanli.cn', 'https://api.suanli.cn/v1', 'http://127.0.0.1:8080', 'http://127.9.8.7', 'http://localhost:3000/v1', 'http://[::1]:9000']) {
      assert.equal(assertSecureUrl(url).href.startsWith(url.split(':')[0] ?? ''), true, url);
    }
  });

  it('refuses plain http to other hosts with a clear message', () => {
    for (const url of ['http://openapi.suanli.cn', 'http://10.0.0.5', 'http://128.0.0.1', 'http://localhost.evil.com', 'http://[::2]']) {
      assert.throws(
        () => assertSecureUrl(url),
        (e: unknown) => e instanceof ConfigError && /Refusing plain http/.test(e.message) && /https/.test(e.hint ?? ''),
        url,
      );
    }
  });

  it('refuses other schemes, credentials in the URL, and non-URLs', () => {
    assert.throws(() => assertSecureUrl('ftp://example.com'), /scheme "ftp:" is not supported/);
    assert.throws(() => assertSecureUrl('https://user:pw@example.com'), /contains a user name or password/);
    assert.throws(() => assertSecureUrl('openapi.suanli.cn'), /is not a valid URL/);
  });

  it('knows loopback hosts', () => {
    assert.equal(isLoopbackHost('127.0.0.1'), true);
    assert.equal(isLoopbackHost('127.255.255.255'), true);
    assert.equal(isLoopbackHost('127.0.0.256'), false);
    assert.equal(isLoopbackHost('[::1]'), true);
    assert.equal(isLoopbackHost('LOCALHOST'), true);
    assert.equal(isLoopbackHost('127.0.0.1.nip.io'), false);
  });
});

describe('joinUrl', () => {
  it('joins without doubling or losing slashes and without re-encoding', () => {
    assert.equal(joinUrl('https://h', '/api/x?a=%20'), 'https://h/api/x?a=%20');
    assert.equal(joinUrl('https://h/', '/api/x'), 'https://h/api/x');
    assert.equal(joinUrl('https://h/v1//', 'models'), 'https://h/v1/models');
  });
});
