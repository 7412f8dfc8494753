import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AbortedError,
  bodyExcerpt,
  ConfigError,
  HttpError,
  isAbort,
  isComputeToolkitError,
  NetworkError,
  RateLimitError,
  TimeoutError,
} from '../../../src/core/errors';

describe('bodyExcerpt', () => {
  it('turns an HTML error page into short readable text', () => {
    const html = '<html><head><style>body{color:red}</style><script>var x=1</script><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>';
    assert.equal(bodyExcerpt(html), '502 Bad Gateway 502 Bad Gateway nginx');
  });

  it('caps long bodies', () => {
    const out = bodyExcerpt('x'.repeat(1000), 50);
    assert.equal(out.length, 51);
    assert.ok(out.endsWith('…'));
  });
});

describe('error hierarchy', () => {
  it('marks exactly the transient HTTP statuses retryable', () => {
    const retryable = [429, 502, 503, 504];
    for (const status of [400, 401, 403, 404, 405, 429, 500, 502, 503, 504]) {
      assert.equal(new HttpError(status, '', undefined).retryable, retryable.includes(status), `status ${status}`);
    }
  });

  it('gives each class its kind and keeps the details', () => {
    const rate = new RateLimitError('slow down', 'text/plain', 7);
    assert.equal(rate.kind, 'rate-limit');
    assert.equal(rate.status, 429);
    assert.match(rate.message, /wait 7 s/);
    assert.equal(new TimeoutError('first-token', 1500).kind, 'timeout');
    assert.match(new TimeoutError('idle', 200).message, /200 ms \(idle\)/);
    assert.equal(new NetworkError('reset', 'ECONNRESET').code, 'ECONNRESET');
    const config = new ConfigError('bad key', 'paste the private key');
    assert.equal(config.hint, 'paste the private key');
    assert.equal(config.name, 'ConfigError');
    assert.ok(isComputeToolkitError(config));
    assert.ok(!isComputeToolkitError(new Error('plain')));
  });

  it('recognises aborts from our class and from the platform', () => {
    assert.ok(isAbort(new AbortedError()));
    const domAbort = new Error('The operation was aborted');
    domAbort.name = 'AbortError';
    assert.ok(isAbort(domAbort));
    assert.ok(!isAbort(new NetworkError('refused', 'ECONNREFUSED')));
  });
});
