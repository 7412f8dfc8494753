// The platform's response envelope `{code, message, data}` (docs/platform.md; the spec calls the message
// field `msg`, so the field name is configurable). data is null whenever code is not "0000".

import type { ServerResponse } from 'node:http';

export type EnvelopeField = 'message' | 'msg';

export interface EnvelopeReply {
  status: number;
  code: string;
  message: string | null;
  data: unknown;
  headers?: Record<string, string>;
}

export function sendEnvelope(res: ServerResponse, field: EnvelopeField, reply: EnvelopeReply): void {
  const body = JSON.stringify({ code: reply.code, [field]: reply.message, data: reply.data });
  res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
