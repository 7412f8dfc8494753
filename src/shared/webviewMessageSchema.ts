// The messages the webview sends to the host, one zod schema each (docs/shapes.md): protocol.ts takes
// their types from here (type-only, so the webview bundle holds no zod) and protocolValidation.ts parses
// with them. Each field's error text says what it requires, never what was sent (the reason is logged).

import { z } from 'zod';
import { CHAT_ACTIONS, type ChatAction } from './chatActions';
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

function boundedString(max: number, allowEmpty = true) {
  const error = `a ${allowEmpty ? '' : 'non-empty '}string of at most ${max} characters`;
  return z.string({ error }).min(allowEmpty ? 0 : 1, { error }).max(max, { error });
}

function boundedNumber(min: number, max: number, integer: boolean) {
  const error = `${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`;
  const number = z.number({ error }).min(min, { error }).max(max, { error });
  return integer ? number.int({ error }) : number;
}

const chatAction = z.enum(CHAT_ACTIONS as [ChatAction, ...ChatAction[]], { error: `one of ${CHAT_ACTIONS.join(', ')}` });
const userText = boundedString(MAX_USER_MESSAGE_CHARS);
const conversationId = boundedString(MAX_ID_CHARS, false);
const code = boundedString(MAX_CODE_CHARS);

/** The fields of a settings change; each is optional, at least one is present. */
const settingsPatch = {
  model: boundedString(MAX_ID_CHARS).optional(),
  systemPrompt: boundedString(MAX_SYSTEM_PROMPT_CHARS).optional(),
  temperature: boundedNumber(TEMPERATURE_MIN, TEMPERATURE_MAX, false).optional(),
  maxTokens: boundedNumber(MAX_TOKENS_MIN, MAX_TOKENS_MAX, true).optional(),
};

/** The fields of each message type besides `type` and `requestId`. */
const FIELDS = {
  ready: {},
  'chat/send': { text: boundedString(MAX_USER_MESSAGE_CHARS, false) },
  'chat/stop': {},
  'chat/regenerate': {},
  /** Replaces the last user message with `text` and asks again. */
  'chat/editLast': { text: boundedString(MAX_USER_MESSAGE_CHARS, false) },
  'conversation/new': {},
  'conversation/switch': { conversationId },
  'conversation/delete': { conversationId },
  'conversation/clear': {},
  /** Opens the host's search over every conversation (title and text). */
  'conversation/search': {},
  'conversation/export': {},
  'settings/update': settingsPatch,
  'models/refresh': {},
  /** The composer's current text, reported (debounced) so the host can restore it. */
  'composer/draft': { text: userText },
  /** Drops the code attached to the next message (the chip's remove button). */
  'composer/removeContext': {},
  'code/copy': { code },
  'code/insert': { code },
  'code/openInEditor': { code, language: boundedString(MAX_LANGUAGE_ID_CHARS) },
  'link/open': { href: boundedString(MAX_HREF_CHARS, false) },
  'action/run': { action: chatAction },
} satisfies Record<string, z.ZodRawShape>;

type Fields = typeof FIELDS;
/** The message a shape of fields describes: required fields, then the optional ones (zod's own inference gives an empty shape an index signature). */
type Output<S extends z.ZodRawShape> = { [P in keyof S as undefined extends z.output<S[P]> ? never : P]: z.output<S[P]> } & {
  [P in keyof S as undefined extends z.output<S[P]> ? P : never]?: Exclude<z.output<S[P]>, undefined>;
};
export type WebviewMessageType = keyof Fields;
export type SettingsPatch = Output<typeof settingsPatch>;
/** One message of each type, without its requestId. */
export type WebviewRequest = { [K in WebviewMessageType]: { type: K } & Output<Fields[K]> }[WebviewMessageType];
export type WebviewMessage = WebviewRequest & { requestId: number };

/** Every type of message the webview may send (one schema each); the host's router has one handler each. */
export const WEBVIEW_MESSAGE_TYPES = Object.freeze(Object.keys(FIELDS) as WebviewMessageType[]);

const requestId = boundedNumber(1, Number.MAX_SAFE_INTEGER, true);

/** The schema of each message type: its fields, `requestId` first, nothing else. */
export const MESSAGE_SCHEMAS = Object.fromEntries(
  WEBVIEW_MESSAGE_TYPES.map((type) => {
    const object = z.strictObject({ type: z.literal(type), requestId, ...FIELDS[type] });
    const schema =
      type === 'settings/update'
        ? object.refine((message) => Object.keys(settingsPatch).some((key) => (message as Record<string, unknown>)[key] !== undefined), { error: 'no setting given' })
        : object;
    return [type, schema];
  }),
) as unknown as Record<WebviewMessageType, z.ZodType<WebviewMessage>>;
