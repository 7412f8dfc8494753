// The compute response envelope: { code, msg | message, data }. The spec names the message field
// `msg`, the real platform `message` (docs/platform.md); code is "0000" (string) or 0 (number) on success.

import { HttpError, ProtocolError, bodyExcerpt } from '../errors';
import { excerptSource } from '../excerpt';

export interface Envelope {
  /** As received, as a string ("0000", "C001"; a numeric code becomes its decimal text). */
  code: string;
  success: boolean;
  /** `msg` or `message`; "" when neither is a string. */
  message: string;
  data: unknown;
}

/** The parsed envelope, or undefined when `text` is not JSON or JSON without a `code` (not an envelope). */
export function tryParseEnvelope(text: string): Envelope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return envelopeOf(parsed);
}

/** The envelope a parsed answer is, or undefined when it has no `code`. */
export function envelopeOf(parsed: unknown): Envelope | undefined {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const code = record.code;
  if (typeof code !== 'string' && typeof code !== 'number') return undefined;
  const message = typeof record.msg === 'string' ? record.msg : typeof record.message === 'string' ? record.message : '';
  return {
    code: String(code),
    success: code === '0000' || code === 0,
    message,
    data: record.data ?? null,
  };
}

export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The error for a body that is not an envelope: an HTML page from a gateway, plain text, or JSON of
 * another shape. The excerpt lets the user see what answered instead of the platform.
 */
export function notAnEnvelopeError(
  status: number,
  text: string,
  contentType: string | undefined,
  /** Removes secrets from the part of the body the excerpt reads (the head, so its cost stays bounded). */
  mask: (head: string) => string = (head) => head,
  /** Whether the whole body parsed as JSON, when `text` is only its head. */
  json: boolean = isJsonText(text),
): HttpError | ProtocolError {
  const excerpt = bodyExcerpt(mask(excerptSource(text)));
  if (status >= 200 && status < 300 && json) {
    return new ProtocolError(`The server answered HTTP ${status} with JSON that is not the platform envelope (no "code"): ${excerpt}`);
  }
  const what = /html/i.test(contentType ?? '') || /^\s*</.test(text) ? 'an HTML page' : json ? 'JSON' : 'a non-JSON body';
  const message = `HTTP ${status}: expected the platform's JSON envelope but got ${what}${excerpt ? `: ${excerpt}` : ' (empty)'}`;
  return new HttpError(status, excerpt, contentType, message);
}
