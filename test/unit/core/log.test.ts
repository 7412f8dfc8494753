import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { maskSecret, Redactor, redactingLogger, type Logger } from '../../../src/core/log';

describe('maskSecret', () => {
  it('keeps 4 + 4 characters of long values and hides the middle', () => {
    const secret = 'tok_0123456789abcdefXYZ';
    const masked = maskSecret(secret);
    assert.equal(masked, 'tok_…fXYZ');
    assert.ok(!masked.includes('0123456789'));
  });

  it('masks short values completely', () => {
    assert.equal(maskSecret('abcdef'), '••••••');
    assert.ok(!maskSecret('short-secret').includes('short'));
  });
});

describe('Redactor', () => {
  it('replaces every occurrence of every registered secret', () => {
    const redactor = new Redactor();
    redactor.setSecrets(['token-AAAA-BBBB-CCCC', 'model-key-1234567890', undefined]);
    const out = redactor.redact('token=token-AAAA-BBBB-CCCC key=model-key-1234567890 again token-AAAA-BBBB-CCCC');
    assert.ok(!out.includes('AAAA-BBBB'));
    assert.ok(!out.includes('1234567890'));
    assert.match(out, /token=toke…CCCC key=mode…7890 again toke…CCCC/);
  });

  it('replaces the longer secret first when one contains another', () => {
    const redactor = new Redactor();
    redactor.setSecrets(['abcdefgh', 'abcdefgh-and-more-1234']);
    assert.equal(redactor.redact('x abcdefgh-and-more-1234 y'), 'x abcd…1234 y');
  });

  it('removes private key PEM blocks and their bare Base64 lines even when not registered', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const redactor = new Redactor();
    const out = redactor.redact(`oops ${pem} after`);
    assert.ok(!out.includes('PRIVATE KEY-----\n'));
    assert.match(out, /oops \[private key redacted\]/);
    assert.match(out, / after$/);

    // A registered key is also caught when only one of its Base64 lines leaks.
    redactor.setSecrets([pem]);
    const line = pem.split('\n')[3] ?? '';
    assert.ok(line.length >= 40);
    assert.ok(!redactor.redact(`partial ${line}`).includes(line));
  });

  it('hides Bearer credentials', () => {
    const redactor = new Redactor();
    assert.equal(redactor.redact('Authorization: Bearer sk-live-abcdef123456'), 'Authorization: Bearer [redacted]');
  });

  it('forgets secrets that are no longer registered', () => {
    const redactor = new Redactor();
    redactor.setSecrets(['first-secret-value']);
    redactor.setSecrets(['second-secret-value']);
    assert.equal(redactor.redact('first-secret-value'), 'first-secret-value');
    assert.notEqual(redactor.redact('second-secret-value'), 'second-secret-value');
  });
});

describe('redactingLogger', () => {
  it('redacts every level before the inner logger sees the message', () => {
    const seen: string[] = [];
    const inner: Logger = {
      trace: (m) => seen.push(`trace ${m}`),
      debug: (m) => seen.push(`debug ${m}`),
      info: (m) => seen.push(`info ${m}`),
      warn: (m) => seen.push(`warn ${m}`),
      error: (m) => seen.push(`error ${m}`),
    };
    const redactor = new Redactor();
    redactor.setSecrets(['super-secret-token-42']);
    const logger = redactingLogger(inner, redactor);
    for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) logger[level](`send super-secret-token-42`);
    assert.equal(seen.length, 5);
    for (const line of seen) assert.ok(!line.includes('super-secret-token-42'), line);
  });
});
