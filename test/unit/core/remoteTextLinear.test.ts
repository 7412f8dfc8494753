// Every other function of src/core that runs a pattern over server-controlled text, guarded against
// quadratic time with adversarial input (t(8n) / t(n), never an absolute time).
import { describe, it } from 'node:test';
import { notAnEnvelopeError, tryParseEnvelope } from '../../../src/core/compute/envelope';
import { parseRetryAfter } from '../../../src/core/http/retry';
import { urlForDisplay } from '../../../src/core/http/url';
import { modelsFromJson, nonChatKind } from '../../../src/core/inference/modelCatalog';
import { errorFromHttpResponse } from '../../../src/core/inference/modelErrors';
import { capMessage } from '../../../src/core/excerpt';
import { assertLinearTime } from '../../helpers/linearTime';

describe('linear time over remote text', () => {
  it('model ids: the non-chat patterns', () => {
    assertLinearTime('nonChatKind', (n) => `${'sd-'.repeat(n / 3)}x`, (id) => nonChatKind(id), { n: 4_000 });
    assertLinearTime('nonChatKind separators', (n) => '_.-/'.repeat(n / 4), (id) => nonChatKind(id), { n: 4_000 });
  });
  it('a model list with many entries', () => {
    assertLinearTime('modelsFromJson', (n) => ({ data: Array.from({ length: n / 20 }, (_, i) => ({ id: `vendor/model-${i}-embed`, supported_endpoint_types: ['image-generation'] })) }), (json) => modelsFromJson(json), { n: 4_000 });
  });
  it('Retry-After headers', () => {
    assertLinearTime('parseRetryAfter digits', (n) => '1'.repeat(n), (value) => parseRetryAfter(value, 0), { n: 4_000 });
    assertLinearTime('parseRetryAfter spaces', (n) => `${' '.repeat(n)}x`, (value) => parseRetryAfter(value, 0), { n: 4_000 });
  });
  it('bodies that are not an envelope (HTML sniffing, JSON check, excerpt)', () => {
    assertLinearTime('notAnEnvelopeError', (n) => `${' '.repeat(n)}<${'<a '.repeat(n / 3)}`, (text) => notAnEnvelopeError(502, text, 'text/html'), { n: 4_000 });
    assertLinearTime('tryParseEnvelope', (n) => `{"code":"0000","data":"${'x'.repeat(n)}"}`, (text) => tryParseEnvelope(text), { n: 4_000 });
  });
  it('model error bodies', () => {
    assertLinearTime('errorFromHttpResponse', (n) => JSON.stringify({ error: { message: '<'.repeat(n) } }), (bodyText) => errorFromHttpResponse({ status: 400, contentType: 'application/json', bodyText, apiKey: 'sk-key-0123456789' }), { n: 4_000 });
  });
  it('URLs and messages in errors', () => {
    assertLinearTime('urlForDisplay', (n) => `https://${'@'.repeat(n)}`, (url) => urlForDisplay(url), { n: 4_000 });
    assertLinearTime('capMessage', (n) => 'x'.repeat(n), (text) => capMessage(text), { n: 4_000 });
  });
});
