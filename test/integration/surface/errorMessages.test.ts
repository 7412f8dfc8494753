// reportError's mapping from each core error class to a message and the actions that fix it.
import * as assert from 'node:assert/strict';
import { AbortedError, ConfigError, HttpError, NetworkError, RateLimitError, TimeoutError } from '../../../src/core/errors';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { ErrorAction } from '../../../src/vscode/errors/describeError';
import { extensionApi } from './surfaceApi';

describe('surface: error messages and actions', () => {
  let api: ExtensionApi;
  const kinds = (actions: readonly ErrorAction[] | undefined): string[] => (actions ?? []).map((action) => action.kind);

  before(async () => {
    api = await extensionApi();
  });

  it('a network failure offers Retry only when the caller can retry, and always Show Logs', () => {
    const error = new NetworkError('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED');
    assert.deepEqual(kinds(api.surface.describeError(error, 'Load tasks')?.actions), ['showLogs']);
    assert.deepEqual(kinds(api.surface.describeError(error, 'Load tasks', true)?.actions), ['retry', 'showLogs']);
    assert.match(api.surface.describeError(error, 'Load tasks')?.message ?? '', /^Load tasks failed: connect ECONNREFUSED/);
  });

  it('a 429 after retries says how long the server asked to wait', () => {
    const report = api.surface.describeError(new RateLimitError('slow down', 'application/json', 30), 'Load tasks');
    assert.match(report?.message ?? '', /Load tasks failed: Rate limited \(HTTP 429\); the server asked to wait 30 s/);
  });

  it('HTTP 401 points at the profile; an HTML gateway page is summarised, not dumped', () => {
    const unauthorized = api.surface.describeError(new HttpError(401, 'Unauthorized', 'text/html'), 'Load tasks');
    assert.ok(kinds(unauthorized?.actions).includes('configureProfile'));
    // nginx's page repeats its <title> as the <h1>; the message names the page once and says who answered.
    const gateway = api.surface.describeError(new HttpError(502, '502 Bad Gateway 502 Bad Gateway nginx', 'text/html'), 'Load tasks', true);
    assert.equal(
      gateway?.message,
      'Load tasks failed: HTTP 502 with an HTML page ("502 Bad Gateway nginx"), not the API\'s JSON. A gateway in front of the API is failing; retry later.',
    );
    assert.deepEqual(kinds(gateway?.actions), ['retry', 'showLogs']);
  });

  it('an HTML 404 (a web page, not the API) points at the profile\'s addresses first', () => {
    const notFound = api.surface.describeError(new HttpError(404, '404 Not Found 404 Not Found nginx', 'text/html; charset=utf-8'), 'Load tasks', true);
    assert.match(notFound?.message ?? '', /HTTP 404 with an HTML page \("404 Not Found nginx"\), not the API's JSON\. Check the profile's addresses/);
    assert.deepEqual(kinds(notFound?.actions), ['configureProfile', 'showLogs']);
    // JSON errors keep the plain form.
    const json = api.surface.describeError(new HttpError(404, 'not found', 'application/json'), 'Load tasks');
    assert.match(json?.message ?? '', /^Load tasks failed: HTTP 404: not found$/);
  });

  it('a timeout and a config error keep their own explanation and hint', () => {
    assert.match(api.surface.describeError(new TimeoutError('request', 30000), 'Load tasks')?.message ?? '', /Timed out after 30000 ms/);
    const config = api.surface.describeError(new ConfigError('The URL is not https.', 'Use https://.'), 'Save profile');
    assert.equal(config?.message, 'Save profile: The URL is not https. Use https://.');
    assert.deepEqual(kinds(config?.actions), ['configureProfile', 'showLogs']);
  });

  it('a bad token or an unregistered key (the platform cannot tell which): Set API Token first, then the key fingerprint', () => {
    // The old alias 'signature-key-not-registered' is gone: the core's diagnosis never produces it.
    for (const cause of ['token-or-key-unregistered']) {
      const error = Object.assign(new Error('C002 signature invalid'), {
        kind: 'auth',
        code: 'C002',
        serverMessage: 'signature invalid',
        operation: 'resource.search',
        likelyCause: { kind: cause, detail: 'The API token may be wrong or revoked, or the platform holds another public key.' },
      });
      const report = api.surface.describeError(error, 'Load resources');
      assert.deepEqual(kinds(report?.actions).slice(0, 2), ['setSecret', 'showFingerprints'], cause);
      assert.deepEqual(report?.actions[0], { kind: 'setSecret', secret: 'apiToken' });
      // The row and the view's message line get the short summary; the whole diagnosis stays in `message`.
      assert.equal(report?.summary, 'Load resources failed: the platform answered C002 "signature invalid".');
      // The cause is worded from its kind in the display language (errorWords.ts), not from the error's English detail.
      assert.match(report?.message ?? '', /Likely cause: .*Most often the API token is wrong/);
    }
  });

  it('cancellation is silent', () => {
    assert.equal(api.surface.describeError(new AbortedError(), 'Load tasks'), undefined);
  });
});
