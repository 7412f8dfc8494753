// How an injected fault answers an interface A request, the ways a real gateway or platform
// misbehaves: slow, 429 with Retry-After, 5xx, an HTML error page, a dropped connection, or a
// business failure in an HTTP 200 envelope.

import { STATUS_CODES, type ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Fault } from '../types';
import { sendEnvelope, type EnvelopeField } from './envelope';

const DEFAULT_LATENCY_MS = 1000;

/**
 * Answers the fault and returns the recorded outcome, or undefined when the request should go on
 * (latency that ran its course).
 */
export async function answerComputeFault(fault: Fault, res: ServerResponse, field: EnvelopeField): Promise<string | undefined> {
  switch (fault.kind) {
    case 'latency':
      return (await waitUnlessClosed(fault.delayMs ?? DEFAULT_LATENCY_MS, res)) ? undefined : 'client-closed';
    case 'status': {
      const status = fault.status ?? 503;
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      const message = fault.message ?? STATUS_CODES[status] ?? 'error';
      sendEnvelope(res, field, { status, code: fault.code ?? String(status), message, data: null, headers });
      return String(status);
    }
    case 'html': {
      const status = fault.status ?? 502;
      const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
      const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
      res.writeHead(status, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(page)) });
      res.end(page);
      return String(status);
    }
    case 'reset':
      res.socket?.destroy();
      return 'reset';
    case 'envelope':
      sendEnvelope(res, field, { status: 200, code: fault.code ?? 'Z001', message: fault.message ?? 'system busy, try again later', data: null });
      return fault.code ?? 'Z001';
    default:
      sendEnvelope(res, field, { status: 500, code: 'Z001', message: `fault kind "${fault.kind}" applies to interface B only`, data: null });
      return 'Z001';
  }
}

/**
 * Waits, but stops as soon as the connection closes (a client that timed out, or the sandbox
 * closing), so no timer outlives the request. Returns false when it was cut short.
 */
async function waitUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
  const closed = new AbortController();
  const onClose = (): void => closed.abort();
  res.once('close', onClose);
  try {
    await delay(ms, undefined, { signal: closed.signal });
    return true;
  } catch (error) {
    if (closed.signal.aborted) return false;
    throw error;
  } finally {
    res.off('close', onClose);
  }
}
