// Non-streamed model calls end: a body trickled one byte at a time (which the idle timer never catches)
// runs into the overall deadline, and the caller's signal gives up a stuck load at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AbortedError, TimeoutError } from '../../../src/core/errors';
import { createModelClient } from '../../../src/core/inference';
import { PATIENCE_MS } from '../../helpers/eventually';
import { startTestServer, type TestServer } from '../http/helpers/testServer';

describe('model client: overall deadline of non-streamed calls', () => {
  let server: TestServer;
  const timers = new Set<NodeJS.Timeout>();
  before(async () => {
    server = await startTestServer();
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      // One byte every 50 ms, forever: always within the idle limit, never complete.
      const timer = setInterval(() => res.write(' '), 50);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    });
  });
  after(async () => {
    for (const timer of timers) clearInterval(timer);
    await server.close();
  });

  const client = (deadlineMs: number) =>
    createModelClient({ apiBaseUrl: `${server.url}/v1`, apiKey: async () => 'sk-test-deadline-0123456789', maxRetries: 0, idleTimeoutMs: 1000, requestDeadlineMs: deadlineMs });

  it('the model list ends with a clear timeout error', { timeout: PATIENCE_MS }, async () => {
    await assert.rejects(client(400).listModels(), (error: unknown) => {
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.phase, 'request');
      assert.match(error.message, /whole request/);
      return true;
    });
  });

  it('a whole completion ends with a clear timeout error', { timeout: PATIENCE_MS }, async () => {
    await assert.rejects(client(400).complete({ model: 'a/b', messages: [{ role: 'user', content: 'hi' }] }), TimeoutError);
  });

  it('aborting the signal gives up a stuck load at once (Refresh)', { timeout: PATIENCE_MS }, async () => {
    const controller = new AbortController();
    const load = client(60_000).listModels(controller.signal);
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(load, AbortedError);
  });
});
