// The record of one attempt that the request debugger shows: what was sent (as Sign Request shows it)
// and what came back, with every secret the attempt carried masked and the body cut at a bound.

import { isCredentialKey, maskCredentials } from '../credentialText';
import { maskSecretsIn } from '../log';
import type { ExchangeRecord } from './api';
import { toPreparedRequest } from '../requests/display';
import type { BuiltRequest } from './request';

/** Enough for any envelope and the start of an error page; the rest is counted, not kept. */
export const EXCHANGE_BODY_LIMIT = 64 * 1024;
const HEADER_LIMIT = 100;
const HEADER_VALUE_LIMIT = 500;

function secretsOf(built: BuiltRequest): string[] {
  return [built.token, ...built.plan.secretValues, ...(built.signature !== undefined ? [built.signature] : [])];
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

export function answeredExchange(
  built: BuiltRequest,
  attempt: number,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  elapsedMs: number,
  body: string,
  envelopeCode?: string,
): ExchangeRecord {
  const secrets = secretsOf(built);
  const responseHeaders: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (responseHeaders.length >= HEADER_LIMIT) break;
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      responseHeaders.push([cut(name, 100), isCredentialKey(name) ? '••••••' : maskCredentials(maskSecretsIn(cut(one, HEADER_VALUE_LIMIT), secrets))]);
    }
  }
  // Masked before cutting, so no secret is half shown at the cut. A password the platform answers with
  // (an SFTP session's, under any credential key) is masked too: only Show Connection Details shows it
  // (docs/nas.md).
  const masked = maskCredentials(maskSecretsIn(body.slice(0, EXCHANGE_BODY_LIMIT + 1024), secrets));
  return {
    attempt,
    operation: built.plan.operation,
    ...(envelopeCode !== undefined ? { envelopeCode: envelopeCode.slice(0, 40) } : {}),
    request: toPreparedRequest(built, undefined),
    status,
    responseHeaders: responseHeaders.slice(0, HEADER_LIMIT),
    elapsedMs,
    responseBody: masked.slice(0, EXCHANGE_BODY_LIMIT),
    responseBodyChars: body.length,
  };
}

export function failedExchange(built: BuiltRequest, attempt: number, elapsedMs: number, failure: string): ExchangeRecord {
  return {
    attempt,
    operation: built.plan.operation,
    request: toPreparedRequest(built, undefined),
    responseHeaders: [],
    elapsedMs,
    responseBody: '',
    responseBodyChars: 0,
    failure: maskSecretsIn(cut(failure, 1000), secretsOf(built)),
  };
}

/** An observer that throws must not break the call it watches. */
export function notifyExchange(observe: ((exchange: ExchangeRecord) => void) | undefined, make: () => ExchangeRecord): void {
  if (!observe) return;
  try {
    observe(make());
  } catch {
    // The debugger's view is secondary to the call itself.
  }
}
