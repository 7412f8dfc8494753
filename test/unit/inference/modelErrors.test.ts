// Error mapping for interface B: every body shape the gateway uses becomes the right error class and kind,
// with the server's message, and never with the key.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError, RateLimitError } from '../../../src/core/errors';
import { isRetryableStatus } from '../../../src/core/http/retry';
import { exchangeContext } from '../../../src/core/inference/exchange';
import { errorFromHttpResponse, ModelApiError } from '../../../src/core/inference/modelErrors';

const KEY = 'sk-test-abcdefghijklmnopqrstuvwxyz012345';

/** Any HttpError class, whatever its constructor takes. */
type HttpErrorClass = abstract new (...args: never[]) => HttpError;

interface Row {
  name: string;
  status: number;
  contentType: string;
  body: string;
  expect: { type: HttpErrorClass; kind: string; code?: string; message: RegExp; retryAfterSeconds?: number };
  retryAfterSeconds?: number;
}

const json = 'application/json';
const ROWS: Row[] = [
  {
    name: 'wrong key → 401 OpenAI error',
    status: 401,
    contentType: json,
    body: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-te***45.', type: 'invalid_request_error', code: 'invalid_api_key' } }),
    expect: { type: ModelApiError, kind: 'auth', code: 'invalid_api_key', message: /Incorrect API key.*HTTP 401/ },
  },
  {
    name: 'forbidden → auth',
    status: 403,
    contentType: json,
    body: JSON.stringify({ error: { message: 'Model not allowed for this key', type: 'permission_error' } }),
    expect: { type: ModelApiError, kind: 'auth', message: /not allowed/ },
  },
  {
    name: 'missing key → the gateway’s {code, message} shape',
    status: 400,
    contentType: json,
    body: '{"code":400,"message":"缺少用户凭证"}',
    expect: { type: ModelApiError, kind: 'api', code: '400', message: /缺少用户凭证/ },
  },
  {
    name: 'validation error → api',
    status: 400,
    contentType: json,
    body: JSON.stringify({ error: { message: 'max_tokens must be an integer', type: 'invalid_request_error', param: 'max_tokens', code: null } }),
    expect: { type: ModelApiError, kind: 'api', message: /max_tokens must be an integer \(HTTP 400\)/ },
  },
  {
    name: 'rate limited → RateLimitError with Retry-After',
    status: 429,
    contentType: json,
    retryAfterSeconds: 3,
    body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }),
    expect: { type: RateLimitError, kind: 'rate-limit', message: /HTTP 429.*3 s/, retryAfterSeconds: 3 },
  },
  {
    name: 'HTML gateway page → HttpError with a tag-free excerpt',
    status: 502,
    contentType: 'text/html',
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
    expect: { type: HttpError, kind: 'http', message: /^HTTP 502: 502 Bad Gateway 502 Bad Gateway nginx$/ },
  },
  {
    name: 'plain text → HttpError',
    status: 500,
    contentType: 'text/plain',
    body: 'upstream connect error',
    expect: { type: HttpError, kind: 'http', message: /HTTP 500: upstream connect error/ },
  },
  {
    name: 'JSON without an error shape → HttpError with the JSON as excerpt',
    status: 404,
    contentType: json,
    body: '{"detail":"Not Found"}',
    expect: { type: HttpError, kind: 'http', message: /HTTP 404: \{"detail":"Not Found"\}/ },
  },
  {
    name: 'a body that echoes the key → masked',
    status: 401,
    contentType: 'text/plain',
    body: `bad key ${KEY}`,
    expect: { type: HttpError, kind: 'http', message: /bad key sk-t…2345/ },
  },
];

describe('errorFromHttpResponse', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const error = errorFromHttpResponse({ status: row.status, contentType: row.contentType, bodyText: row.body, apiKey: KEY, retryAfterSeconds: row.retryAfterSeconds });
      assert.ok(error instanceof row.expect.type, `${error.constructor.name} is not ${row.expect.type.name}`);
      assert.equal(error.kind, row.expect.kind);
      assert.match(error.message, row.expect.message);
      assert.ok(!error.message.includes(KEY));
      assert.ok(!JSON.stringify(error).includes(KEY));
      if (row.expect.code !== undefined) assert.equal((error as ModelApiError).code, row.expect.code);
      if (row.expect.retryAfterSeconds !== undefined) assert.equal((error as HttpError).retryAfterSeconds, row.expect.retryAfterSeconds);
      assert.equal((error as HttpError).status, row.status);
    });
  }
});

describe('model exchange retry policy', () => {
  it('retries 429 and 5xx (500 included: nothing of a reply exists yet), never 4xx', () => {
    const policy = exchangeContext({ apiBaseUrl: 'https://x.invalid/v1', apiKey: async () => undefined }).retryPolicy;
    const retried = [200, 400, 401, 403, 404, 408, 429, 500, 501, 502, 503, 504].filter((status) => isRetryableStatus(status, policy));
    assert.deepEqual(retried, [429, 500, 502, 503, 504]);
  });
  it('honours maxRetries (the request.maxRetries setting) and the shared retry option shape', () => {
    const context = exchangeContext({ apiBaseUrl: 'https://x.invalid/v1', apiKey: async () => undefined, maxRetries: 7, retry: { baseDelayMs: 3, maxRetries: 1 } });
    assert.equal(context.retryPolicy.maxRetries, 7);
    assert.equal(context.retryPolicy.baseDelayMs, 3);
    assert.equal(context.retryPolicy.maxDelayMs, 20_000);
  });
});

describe('model errors carry a capped excerpt of the server body', () => {
  const huge = `${'x'.repeat(400)} ${KEY} ${'y'.repeat(900_000)}`;
  const shapes: Record<string, { status: number; body: string }> = {
    'OpenAI {error:{message}}': { status: 400, body: JSON.stringify({ error: { message: huge, type: 'invalid_request_error', code: 'x'.repeat(5000) } }) },
    '{error:"…"} string': { status: 500, body: JSON.stringify({ error: huge }) },
    'gateway {code, message}': { status: 400, body: JSON.stringify({ code: 400, message: huge }) },
    'HTML page': { status: 502, body: `<html><body>${huge}</body></html>` },
    '429 with a message': { status: 429, body: JSON.stringify({ error: { message: huge } }) },
  };
  for (const [name, { status, body }] of Object.entries(shapes)) {
    it(name, () => {
      const error = errorFromHttpResponse({ status, contentType: 'application/json', bodyText: body, apiKey: KEY });
      assert.ok(error.message.length <= 1200, `${name}: message of ${error.message.length} characters`);
      assert.ok(!error.message.includes(KEY), `${name}: the key is in the message`);
      if (error instanceof ModelApiError) {
        assert.ok(error.serverMessage.length <= 1200 && (error.code ?? '').length <= 200, `${name}: serverMessage ${error.serverMessage.length}`);
      }
      if (error instanceof HttpError) assert.ok(error.excerpt.length <= 1200, `${name}: excerpt ${error.excerpt.length}`);
    });
  }
});
