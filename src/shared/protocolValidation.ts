// Runtime validation of every message the webview sends to the host. The webview renders model output,
// so the host treats what it says as untrusted input: unknown types, unknown fields, wrong types and
// oversized strings are rejected before any handler sees the message. The schemas are zod's
// (webviewMessageSchema.ts); they load with the first message, not at activation (docs/shapes.md).

import type { WebviewMessage } from './protocol';

export type ValidationResult = { ok: true; message: WebviewMessage } | { ok: false; reason: string };

type MessageSchemas = typeof import('./webviewMessageSchema');
// The host's CommonJS require (src/shared is also type-checked for the browser, without Node's types).
declare function require(id: string): unknown;
let loaded: MessageSchemas | undefined;

function messageSchemas(): MessageSchemas {
  // A require() in a function: zod loads with the first message, not at activation (docs/shapes.md).
  loaded ??= require('./webviewMessageSchema') as MessageSchemas;
  return loaded;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one message from the webview; the reason names the first problem (safe to log: no field values). */
export function validateWebviewMessage(value: unknown): ValidationResult {
  if (!isRecord(value)) return { ok: false, reason: 'message is not an object' };
  const type = value.type;
  const { MESSAGE_SCHEMAS } = messageSchemas();
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(MESSAGE_SCHEMAS, type)) {
    return { ok: false, reason: `unknown message type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type}` };
  }
  const parsed = MESSAGE_SCHEMAS[type as keyof typeof MESSAGE_SCHEMAS].safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') return { ok: false, reason: `${type}: unexpected field ${JSON.stringify((issue.keys[0] ?? '').slice(0, 40))}` };
  const field = issue?.path[0];
  return { ok: false, reason: field === undefined ? `${type}: ${issue?.message}` : `${type}: ${String(field)} must be ${issue?.message}` };
}

/** Links the host opens for the webview: absolute http(s) only (no command:, file:, javascript:, vscode:). */
export function parseOpenableLink(href: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined; // not an absolute URL: nothing to open
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined; // credentials in links are a phishing pattern
  return url;
}
