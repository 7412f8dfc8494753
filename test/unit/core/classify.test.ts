// The one error classification (src/core/errors/classify.ts): kind, message and hint keys, the actions
// most likely to fix it, and retryability taken from the retry policy (src/core/http/retry.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MissingModelKeyError, NoChatModelError, NoChatProfileError } from '../../../src/core/chat/turnErrors';
import { ComputeApiError } from '../../../src/core/compute/errors';
import { AbortedError, ConfigError, HttpError, NetworkError, ProtocolError, RateLimitError, SetupError, TimeoutError } from '../../../src/core/errors';
import { classifyError, collapseRepeatedLead } from '../../../src/core/errors/classify';
import { isRetryableStatus } from '../../../src/core/http/retry';
import { SshAgentError, SshHostKeyError } from '../../../src/core/ssh/errors';
import { ModelApiError } from '../../../src/core/inference/modelErrors';

const compute = { surface: 'compute' } as const;
const model = { surface: 'model' } as const;

describe('classifyError', () => {
  it('shows nothing for a cancellation (ours or a platform AbortError)', () => {
    assert.equal(classifyError(new AbortedError(), compute), undefined);
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    assert.equal(classifyError(abort, model), undefined);
  });

  it('takes retryability of every status from the retry policy, and offers Retry only when it helps and the caller can', () => {
    for (let status = 400; status < 600; status++) {
      const classification = classifyError(new HttpError(status, '', 'application/json'), { surface: 'compute', canRetry: true });
      assert.ok(classification);
      assert.equal(classification.retryable, isRetryableStatus(status), `status ${status}`);
      assert.equal(classification.actions.includes('retry'), isRetryableStatus(status), `status ${status}`);
      assert.equal(new HttpError(status, '', undefined).retryable, isRetryableStatus(status), `HttpError ${status}`);
    }
    assert.deepEqual(classifyError(new NetworkError('reset', 'ECONNRESET'), { surface: 'compute', canRetry: false })?.actions, ['showLogs']);
    assert.deepEqual(classifyError(new NetworkError('reset', 'ECONNRESET'), { surface: 'compute', canRetry: true })?.actions, ['retry', 'showLogs']);
  });

  it('an HTML page: a gateway status says retry later, any other points at the profile addresses', () => {
    const gateway = classifyError(new HttpError(502, '502 Bad Gateway 502 Bad Gateway nginx', 'text/html'), { surface: 'compute', canRetry: true });
    assert.equal(gateway?.message, 'html-page');
    assert.equal(gateway?.hint, 'gateway-failing');
    assert.equal(gateway?.values.excerpt, '502 Bad Gateway nginx');
    assert.deepEqual(gateway?.actions, ['retry', 'showLogs']);
    const page = classifyError(new HttpError(404, 'Not Found', 'text/html; charset=utf-8'), { surface: 'compute', canRetry: true });
    assert.equal(page?.hint, 'check-addresses');
    assert.deepEqual(page?.actions, ['configureProfile', 'showLogs']);
    assert.equal(collapseRepeatedLead('404 Not Found 404 Not Found nginx'), '404 Not Found nginx');
  });

  it('words rate limits and timeouts from their values, not their English message', () => {
    const limited = classifyError(new RateLimitError('slow', 'text/plain', 30), compute);
    assert.equal(limited?.message, 'rate-limited');
    assert.equal(limited?.values.retryAfterSeconds, 30);
    const timeout = classifyError(new TimeoutError('first-token', 1500), compute);
    assert.equal(timeout?.message, 'timeout');
    assert.deepEqual([timeout?.values.timeoutMs, timeout?.values.timeoutPhase], [1500, 'first-token']);
  });

  it('a compute failure: the diagnosed cause picks the actions, most likely fix first', () => {
    const error = new ComputeApiError('C002', 'signature invalid', 'resource.search', { kind: 'token-or-key-unregistered', detail: 'x', encrypted: false }, 200, 'C002');
    const classification = classifyError(error, compute);
    assert.equal(classification?.message, 'platform-refused');
    assert.deepEqual(classification?.actions, ['setApiToken', 'showFingerprints', 'openSignRequest', 'showLogs']);
    assert.equal(classification?.operation, 'resource.search');
    assert.deepEqual([classification?.values.code, classification?.values.serverMessage], ['C002', 'signature invalid']);
    const skew = classifyError(new ComputeApiError('C003', '', 'raw', { kind: 'clock-skew', detail: 'x', offsetMs: 600_000 }, 200, 'C003'), compute);
    assert.deepEqual(skew?.actions, ['openSignRequest', 'showLogs']);
    assert.equal(skew?.operation, undefined, 'a raw request names no catalog operation');
    // A cause the table does not know (the core added it later) falls back to the generic actions.
    const unknown = classifyError(new ComputeApiError('C002', '', 'task.list', { kind: 'something-new', detail: 'x' } as never, 200, 'C002'), compute);
    assert.deepEqual(unknown?.actions, ['configureProfile', 'openSignRequest', 'showLogs']);
  });

  it('a setup error names the one step that fixes it, per surface', () => {
    const secret = classifyError(new SetupError('privateKey', 'Prod', 'no key'), compute);
    assert.deepEqual([secret?.message, secret?.values.missing, secret?.values.profileLabel], ['missing-setup', 'privateKey', 'Prod']);
    assert.deepEqual(secret?.actions, ['setPrivateKey', 'configureProfile']);
    assert.deepEqual(classifyError(new SetupError('profile', undefined, 'none'), compute)?.actions, ['connectSandbox', 'createProfile']);
    assert.deepEqual(classifyError(new MissingModelKeyError('Dev'), { surface: 'model', canRetry: true })?.actions, ['setModelApiKey', 'retry']);
    assert.deepEqual(classifyError(new NoChatProfileError(), { surface: 'model', canRetry: true })?.actions, ['connectSandbox', 'createProfile', 'retry']);
    assert.deepEqual(classifyError(new NoChatModelError('none listed'), { surface: 'model', canRetry: true })?.actions, ['retry']);
    const config = classifyError(new ConfigError('The URL is not https.', 'Use https://.'), compute);
    assert.deepEqual([config?.message, config?.values.detail, config?.values.hint], ['config', 'The URL is not https.', 'Use https://.']);
  });

  it('the model surface: a refused key asks for the model key; other failures get a model hint', () => {
    const refused = classifyError(new ModelApiError({ status: 401, serverMessage: 'bad key', code: 'invalid_api_key' }), { surface: 'model', canRetry: true });
    assert.deepEqual([refused?.kind, refused?.message, refused?.hint], ['auth', 'model-refused-key', 'model-key']);
    assert.deepEqual(refused?.actions, ['setModelApiKey', 'retry', 'showLogs']);
    assert.equal(classifyError(new NetworkError('refused', 'ECONNREFUSED'), model)?.hint, 'model-unreachable');
    assert.equal(classifyError(new ProtocolError('bad stream'), model)?.hint, 'model-protocol');
    // The model gateway's 500 is retried before a reply (retryServerError): the classification agrees.
    assert.equal(classifyError(new HttpError(500, '', 'application/json'), model)?.retryable, isRetryableStatus(500, { retryServerError: true }));
    // The same 401 on the compute surface points at the profile, not the model key.
    assert.deepEqual(classifyError(new HttpError(401, 'no', 'application/json'), compute)?.actions, ['configureProfile', 'showLogs']);
  });

  it('an SSH login problem of the user (agent, host key) offers no profile action: the profile cannot fix it', () => {
    for (const error of [new SshAgentError('Your SSH agent does not answer.'), new SshHostKeyError('The host key changed.', 'SHA256:a', 'SHA256:b')]) {
      const shown = classifyError(error, { surface: 'compute', canRetry: true });
      assert.equal(shown?.kind, 'auth');
      assert.deepEqual(shown?.actions, ['showLogs']);
    }
    // A platform auth failure still points at the profile.
    assert.ok(classifyError(Object.assign(new Error('refused'), { kind: 'auth' }), { surface: 'compute' })?.actions.includes('configureProfile'));
  });

  it('an error from outside the core keeps its own text', () => {
    const classification = classifyError(new TypeError('boom'), { surface: 'compute', canRetry: true });
    assert.deepEqual([classification?.kind, classification?.message, classification?.values.detail], ['unknown', 'failed', 'boom']);
    assert.deepEqual(classification?.actions, ['retry', 'showLogs']);
  });
});
