// Runtime validation of every message the webview sends to the host. The webview renders model output,
// so the host treats what it says as untrusted input: unknown types, unknown fields, wrong types and
// oversized strings are rejected before any handler sees the message.

import {
  MAX_CODE_CHARS,
  MAX_HREF_CHARS,
  MAX_ID_CHARS,
  MAX_LANGUAGE_ID_CHARS,
  MAX_SYSTEM_PROMPT_CHARS,
  MAX_TOKENS_MAX,
  MAX_TOKENS_MIN,
  MAX_USER_MESSAGE_CHARS,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from './limits';
import { CHAT_ACTIONS, type ChatAction, type WebviewMessage, type WebviewMessageType, type WebviewRequest } from './protocol';

export type ValidationResult = { ok: true; message: WebviewMessage } | { ok: false; reason: string };

type Check<V> = (value: unknown) => value is V;

interface FieldSpec<V> {
  check: Check<V>;
  /** What the check requires, for the rejection reason. */
  expects: string;
  optional?: true;
}

type FieldsOf<K extends WebviewMessageType> = Omit<Extract<WebviewRequest, { type: K }>, 'type'>;

/** One spec per field of each message type; the compiler insists every field of the union is covered. */
type Schema<T> = { [P in keyof T]-?: FieldSpec<Exclude<T[P], undefined>> };

function boundedString(max: number, allowEmpty = true): FieldSpec<string> {
  return {
    check: (value: unknown): value is string =>
      typeof value === 'string' && value.length <= max && (allowEmpty || value.length > 0),
    expects: `a ${allowEmpty ? '' : 'non-empty '}string of at most ${max} characters`,
  };
}

function boundedNumber(min: number, max: number, integer: boolean): FieldSpec<number> {
  return {
    check: (value: unknown): value is number =>
      typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value)),
    expects: `${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`,
  };
}

function optional<V>(spec: FieldSpec<V>): FieldSpec<V> {
  return { ...spec, optional: true };
}

const chatAction: FieldSpec<ChatAction> = {
  check: (value: unknown): value is ChatAction => typeof value === 'string' && (CHAT_ACTIONS as readonly string[]).includes(value),
  expects: `one of ${CHAT_ACTIONS.join(', ')}`,
};

const userText = boundedString(MAX_USER_MESSAGE_CHARS);
const conversationId = boundedString(MAX_ID_CHARS, false);
const code = boundedString(MAX_CODE_CHARS);

const schemas: { [K in WebviewMessageType]: Schema<FieldsOf<K>> } = {
  ready: {},
  'chat/send': { text: boundedString(MAX_USER_MESSAGE_CHARS, false) },
  'chat/stop': {},
  'chat/regenerate': {},
  'chat/editLast': { text: boundedString(MAX_USER_MESSAGE_CHARS, false) },
  'conversation/new': {},
  'conversation/switch': { conversationId },
  'conversation/delete': { conversationId },
  'conversation/clear': {},
  'conversation/search': {},
  'conversation/export': {},
  'settings/update': {
    model: optional(boundedString(MAX_ID_CHARS)),
    systemPrompt: optional(boundedString(MAX_SYSTEM_PROMPT_CHARS)),
    temperature: optional(boundedNumber(TEMPERATURE_MIN, TEMPERATURE_MAX, false)),
    maxTokens: optional(boundedNumber(MAX_TOKENS_MIN, MAX_TOKENS_MAX, true)),
  },
  'models/refresh': {},
  'composer/draft': { text: userText },
  'composer/removeContext': {},
  'code/copy': { code },
  'code/insert': { code },
  'code/openInEditor': { code, language: boundedString(MAX_LANGUAGE_ID_CHARS) },
  'link/open': { href: boundedString(MAX_HREF_CHARS, false) },
  'action/run': { action: chatAction },
};

/** Every type of message the webview may send (one schema each); the host's router has one handler each. */
export const WEBVIEW_MESSAGE_TYPES = Object.freeze(Object.keys(schemas) as WebviewMessageType[]);

const requestId = boundedNumber(1, Number.MAX_SAFE_INTEGER, true);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMessageType(value: unknown): value is WebviewMessageType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(schemas, value);
}

/** Checks one message from the webview; the reason names the first problem (safe to log: no field values). */
export function validateWebviewMessage(value: unknown): ValidationResult {
  if (!isRecord(value)) return { ok: false, reason: 'message is not an object' };
  const type = value.type;
  if (!isMessageType(type)) {
    return { ok: false, reason: `unknown message type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type}` };
  }
  if (!requestId.check(value.requestId)) return { ok: false, reason: `${type}: requestId must be ${requestId.expects}` };

  const schema: Record<string, FieldSpec<unknown>> = schemas[type];
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== 'requestId' && !Object.prototype.hasOwnProperty.call(schema, key)) {
      return { ok: false, reason: `${type}: unexpected field ${JSON.stringify(key.slice(0, 40))}` };
    }
  }
  let present = 0;
  for (const [key, spec] of Object.entries(schema)) {
    const field = value[key];
    if (field === undefined && spec.optional) continue;
    if (!spec.check(field)) return { ok: false, reason: `${type}: ${key} must be ${spec.expects}` };
    present++;
  }
  if (type === 'settings/update' && present === 0) return { ok: false, reason: 'settings/update: no setting given' };
  // Every field was checked against the schema of its type above.
  return { ok: true, message: value as WebviewMessage };
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
