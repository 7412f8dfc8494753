// Spec texts across a thread boundary: the validation worker cannot call the editor's localization,
// so it records each message call (method and arguments) under a token, and the host replays the
// tokens through its own SpecMessages (the display language). Tokens carry a random nonce per
// recording, so text from the file that looks like a token is never taken for one.

import { randomBytes } from 'node:crypto';
import type { SpecMessages } from './messages';

export interface MessageCall {
  method: string;
  args: unknown[];
}

export interface Recording {
  nonce: string;
  calls: MessageCall[];
}

/** Messages whose every call returns a token for `recording.calls`. */
export function recordingMessages(): { messages: SpecMessages; recording: Recording } {
  const recording: Recording = { nonce: randomBytes(8).toString('hex'), calls: [] };
  const messages = new Proxy({} as SpecMessages, {
    get: (_target, method) => (...args: unknown[]) => {
      recording.calls.push({ method: String(method), args });
      return `\u0000${recording.nonce}#${recording.calls.length - 1}`;
    },
  });
  return { messages, recording };
}

/** `text` with a recorded token replaced by the message `messages` gives for its call (arguments first). */
export function replayMessage(text: string, recording: Recording, messages: SpecMessages, depth = 0): string {
  const prefix = `\u0000${recording.nonce}#`;
  if (!text.startsWith(prefix) || depth > 4) return text;
  const call = recording.calls[Number(text.slice(prefix.length))];
  if (!call || !Object.prototype.hasOwnProperty.call(messages, call.method)) return text;
  const args = call.args.map((arg) => (typeof arg === 'string' ? replayMessage(arg, recording, messages, depth + 1) : arg));
  return (messages[call.method as keyof SpecMessages] as (...values: unknown[]) => string)(...args);
}
