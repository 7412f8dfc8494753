// A proxy or captive portal that answers 200 with a page echoing the request headers must not carry the
// model API key into an error message.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpError } from '../../../src/core/errors';
import { createModelClient } from '../../../src/core/inference';
import { startTestServer, type TestServer } from '../http/helpers/testServer';

const API_KEY = 'sk-live-0123456789abcdefghijklmnop';

describe('model client: bodies that echo the key', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    server.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>Login required. You sent: ${String(req.headers.authorization)}</body></html>`);
    });
  });
  after(() => server.close());

  const client = () => createModelClient({ apiBaseUrl: `${server.url}/v1`, apiKey: async () => API_KEY, maxRetries: 0 });
  const leaks = (error: unknown): boolean => error instanceof Error && `${error.message} ${JSON.stringify(error)}`.includes(API_KEY.slice(4, -4));

  it('a whole reply: HttpError with an excerpt, the key masked', async () => {
    const error = await client().complete({ model: 'a/b', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof HttpError && /Login required/.test(error.message), String(error));
    assert.equal(leaks(error), false, (error as Error).message);
  });

  it('the model list and a stream: the same', async () => {
    const listError = await client().listModels().then(() => undefined, (e: unknown) => e);
    assert.ok(listError instanceof HttpError);
    assert.equal(leaks(listError), false, (listError as Error).message);
    const streamError = await client().stream({ model: 'a/b', messages: [{ role: 'user', content: 'hi' }] }).outcome.then(() => undefined, (e: unknown) => e);
    assert.ok(streamError instanceof HttpError && /Login required/.test(streamError.message), String(streamError));
    assert.equal(leaks(streamError), false, (streamError as Error).message);
  });
});
