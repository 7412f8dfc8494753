// Placeholder until interface B lands: answers every /v1 request with 404 in the OpenAI error shape.
import type { InferenceHandler, InferenceHandlerOptions } from '../types';

export function createInferenceHandler(_options: InferenceHandlerOptions): InferenceHandler {
  return async (_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'Not implemented', type: 'invalid_request_error', code: 'not_found' } }));
    return true;
  };
}
