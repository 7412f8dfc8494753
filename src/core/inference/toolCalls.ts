// Streamed tool calls (chat-completions convention): each `delta.tool_calls[]` entry carries an `index`,
// and the first fragment of a call its `id` and `function.name`; `function.arguments` arrives in pieces
// to be concatenated. This assembles them, bounded: a model cannot make it hold unlimited calls or text.

import { ProtocolError } from '../errors';
import type { ToolCall } from './api';

/** At most this many calls per reply, and this many characters of arguments per call. */
export const MAX_TOOL_CALLS = 64;
export const MAX_ARGUMENT_CHARS = 256 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Pending {
  id: string;
  name: string;
  parts: string[];
  length: number;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, Pending>();
  private emitted = false;

  get size(): number {
    return this.calls.size;
  }

  /** Applies one `delta.tool_calls` value (anything else is ignored). */
  apply(deltaToolCalls: unknown): void {
    if (!Array.isArray(deltaToolCalls)) return;
    for (const fragment of deltaToolCalls) {
      if (!isRecord(fragment)) continue;
      const index = typeof fragment['index'] === 'number' && Number.isInteger(fragment['index']) ? fragment['index'] : this.calls.size === 0 ? 0 : Math.max(...this.calls.keys());
      let call = this.calls.get(index);
      if (!call) {
        if (this.calls.size >= MAX_TOOL_CALLS) throw new ProtocolError(`The model made more than ${MAX_TOOL_CALLS} tool calls in one reply.`);
        call = { id: '', name: '', parts: [], length: 0 };
        this.calls.set(index, call);
      }
      if (typeof fragment['id'] === 'string' && fragment['id'] !== '') call.id = fragment['id'];
      const fn = fragment['function'];
      if (isRecord(fn)) {
        if (typeof fn['name'] === 'string' && fn['name'] !== '') call.name = call.name === '' ? fn['name'] : call.name;
        const args = fn['arguments'];
        if (typeof args === 'string' && args !== '') {
          call.length += args.length;
          if (call.length > MAX_ARGUMENT_CHARS) throw new ProtocolError(`A tool call's arguments exceed ${MAX_ARGUMENT_CHARS} characters.`);
          call.parts.push(args);
        }
      }
    }
  }

  /** The complete calls in index order, once (later calls return []). Calls without a name are dropped. */
  take(): ToolCall[] {
    if (this.emitted) return [];
    this.emitted = true;
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, call]) => call.name !== '')
      .map(([index, call]) => ({ id: call.id !== '' ? call.id : `call_${index}`, name: call.name, arguments: call.parts.join('') }));
  }
}

/** A call's arguments as an object: empty text is {}, anything but a JSON object is a ProtocolError. */
export function parseToolArguments(call: ToolCall): Record<string, unknown> {
  if (call.arguments.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(call.arguments);
  } catch {
    throw new ProtocolError(`The model sent arguments for ${call.name} that are not valid JSON.`);
  }
  if (!isRecord(value)) throw new ProtocolError(`The model sent arguments for ${call.name} that are not a JSON object.`);
  return value;
}
