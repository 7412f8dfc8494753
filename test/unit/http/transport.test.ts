import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AbortedError, NetworkError, ProtocolError, TimeoutError } from '../../../src/core/errors';
import { firstHeader, httpRequest } from '../../../src/core/http/transport';
import { json, startTestServer, type TestServer } from './helpers/testServer';

describe('httpRequest over undici', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('sends method, headers and body exactly; returns status, headers and text', async () => {
    server.handle((req, res) => json(res, 201, { echo: req.body, path: req.url }, { 'x-multi': 'a' }));
    const response = await httpRequest({
      url: `${server.url}/api/x?q=%27%E4%B8%AD`,
      method: 'POST',
      headers: { token: 'abc', 'Content-Type': 'application/json' },
      body: '{"名":"值"}',
    });
    assert.equal(response.status, 201);
    assert.equal(firstHeader(response.headers, 'X-Multi'), 'a');
    assert.deepEqual(JSON.parse(await response.text()), { echo: '{"名":"值"}', path: '/api/x?q=%27%E4%B8%AD' });
    const received = server.requests.at(-1);
    assert.equal(received?.method, 'POST');
    assert.equal(received?.headers.token, 'abc');
  });

  it('exposes the body as a stream for incremental readers', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setTimeout(() => res.end('data: 2\n\n'), 5);
    });
    const response = await httpRequest({ url: server.url, method: 'GET', headers: {} });
    let text = '';
    for await (const chunk of response.body as AsyncIterable<Buffer>) text += chunk.toString();
    assert.equal(text, 'data: 1\n\ndata: 2\n\n');
  });

  it('text(limit) refuses a body larger than the limit', async () => {
    server.handle((_req, res) => {
      res.end('x'.repeat(5_000));
    });
    const response = await httpRequest({ url: server.url, method: 'GET', headers: {} });
    await assert.rejects(response.text(1_000), (e: unknown) => e instanceof ProtocolError && /larger than 1000 bytes/.test(e.message));
  });

  it('maps a whole-request timeout to TimeoutError("request")', async () => {
    server.handle(() => undefined); // never answers
    await assert.rejects(
      httpRequest({ url: server.url, method: 'GET', headers: {}, timeoutMs: 100 }),
      (e: unknown) => e instanceof TimeoutError && e.phase === 'request' && e.timeoutMs === 100,
    );
  });

  it('maps a timeout while reading the body to TimeoutError too', async () => {
    server.handle((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    // The headers must arrive before the deadline, however busy the machine: the body never ends, so
    // the test still ends at the deadline.
    const response = await httpRequest({ url: server.url, method: 'GET', headers: {}, timeoutMs: 3_000 });
    await assert.rejects(response.text(), (e: unknown) => e instanceof TimeoutError && e.phase === 'request' && e.timeoutMs === 3_000);
  });

  it('a signal aborted while the transport starts (undici still loading) ends the request', async () => {
    server.handle(() => undefined); // never answers
    const caller = new AbortController();
    // Aborted before httpRequest's first await resolves: the deadline below is only how the old code failed.
    const pending = httpRequest({ url: server.url, method: 'GET', headers: {}, signal: caller.signal, timeoutMs: 5_000 });
    caller.abort();
    await assert.rejects(pending, AbortedError);
  });

  it('maps undici headersTimeout to TimeoutError("first-token")', async () => {
    server.handle(() => undefined);
    await assert.rejects(
      httpRequest({ url: server.url, method: 'GET', headers: {}, headersTimeoutMs: 100 }),
      (e: unknown) => e instanceof TimeoutError && e.phase === 'first-token',
    );
  });

  it('maps the caller aborting (before and during) to AbortedError', async () => {
    await assert.rejects(httpRequest({ url: server.url, method: 'GET', headers: {}, signal: AbortSignal.abort() }), AbortedError);
    server.handle(() => undefined);
    const controller = new AbortController();
    const arrived = server.nextRequest();
    const pending = httpRequest({ url: server.url, method: 'GET', headers: {}, signal: controller.signal });
    await arrived;
    controller.abort();
    await assert.rejects(pending, AbortedError);
  });

  it('maps a connection reset to NetworkError with its code', async () => {
    server.handle((_req, _res, raw) => {
      raw.socket.destroy();
    });
    await assert.rejects(httpRequest({ url: server.url, method: 'GET', headers: {} }), (e: unknown) => {
      assert.ok(e instanceof NetworkError, String(e));
      assert.ok(e.code === 'UND_ERR_SOCKET' || e.code === 'ECONNRESET', e.code);
      assert.match(e.message, /closed before the response was complete/);
      return true;
    });
  });

  it('maps a refused connection to NetworkError ECONNREFUSED', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    await assert.rejects(httpRequest({ url: `http://127.0.0.1:${closedPort}/`, method: 'GET', headers: {} }), (e: unknown) => {
      assert.ok(e instanceof NetworkError);
      assert.equal(e.code, 'ECONNREFUSED');
      assert.match(e.message, /Connection refused by 127\.0\.0\.1:\d+/);
      return true;
    });
  });
});
