// The outputs of one cell run as the kernel sends them on IOPub (stream, display_data, update_display_data,
// execute_result, error, clear_output), kept bounded: consecutive stream text of one name is one bounded
// tail (./outputTail.ts), at most MAX_OUTPUTS outputs are kept (the oldest dropped and counted), and a rich
// output that would take the kept rich data past MAX_RICH_CHARS is replaced by a note. Whatever the server sends, memory stays bounded.

import { OutputTail, type StreamText } from './outputTail';

export const MAX_OUTPUTS = 500;
export const MAX_RICH_CHARS = 50_000_000;

export type CellOutput =
  | ({ kind: 'stream'; name: 'stdout' | 'stderr' } & StreamText)
  | { kind: 'rich'; data: Record<string, unknown>; metadata: Record<string, unknown>; displayId?: string }
  /** A rich output left out because the cell's rich data would pass MAX_RICH_CHARS. */
  | { kind: 'too-large'; chars: number }
  | { kind: 'error'; ename: string; evalue: string; traceback: string[] };

export interface CellOutputsView {
  outputs: CellOutput[];
  /** Outputs no longer kept (beyond MAX_OUTPUTS). */
  droppedOutputs: number;
}

type Kept =
  | { kind: 'stream'; name: 'stdout' | 'stderr'; tail: OutputTail }
  | (Extract<CellOutput, { kind: 'rich' }> & { chars: number })
  | Exclude<CellOutput, { kind: 'stream' } | { kind: 'rich' }>;

export interface IopubMessage {
  header: { msg_type: string };
  content: unknown;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  // nbformat allows multi-line strings as lists of lines.
  return Array.isArray(value) ? value.filter((part): part is string => typeof part === 'string').join('') : '';
}

function richSize(data: Record<string, unknown>): number {
  let size = 0;
  for (const value of Object.values(data)) size += typeof value === 'string' ? value.length : JSON.stringify(value ?? null).length;
  return size;
}

export class CellOutputs {
  private kept: Kept[] = [];
  private dropped = 0;
  private clearOnNext = false;
  private richChars = 0;
  /** Bumped on every change, so a view can skip redrawing what it already drew. */
  version = 0;

  /** Takes one IOPub message of this cell's execution; returns whether the outputs changed. */
  add(message: IopubMessage): boolean {
    const content = record(message.content);
    switch (message.header.msg_type) {
      case 'stream': {
        const name = content['name'] === 'stderr' ? 'stderr' : 'stdout';
        this.clearIfWaiting();
        const last = this.kept.at(-1);
        if (last?.kind === 'stream' && last.name === name) last.tail.append(text(content['text']));
        else {
          const tail = new OutputTail();
          tail.append(text(content['text']));
          this.push({ kind: 'stream', name, tail });
        }
        break;
      }
      case 'display_data':
      case 'execute_result': {
        this.clearIfWaiting();
        this.push(this.rich(content));
        break;
      }
      case 'update_display_data': {
        const displayId = typeof record(content['transient'])['display_id'] === 'string' ? String(record(content['transient'])['display_id']) : undefined;
        const index = displayId === undefined ? -1 : this.kept.findIndex((output) => output.kind === 'rich' && output.displayId === displayId);
        if (index < 0) return false;
        this.forget(this.kept[index]);
        this.kept[index] = this.rich(content);
        break;
      }
      case 'error': {
        this.clearIfWaiting();
        const traceback = Array.isArray(content['traceback']) ? content['traceback'].slice(-200).map((line) => String(line).slice(0, 20_000)) : [];
        this.push({ kind: 'error', ename: String(content['ename'] ?? 'Error').slice(0, 1_000), evalue: String(content['evalue'] ?? '').slice(0, 20_000), traceback });
        break;
      }
      case 'clear_output': {
        if (content['wait'] === true) {
          this.clearOnNext = true;
          return false;
        }
        this.clear();
        break;
      }
      default:
        return false;
    }
    this.version++;
    return true;
  }

  view(): CellOutputsView {
    return {
      outputs: this.kept.map((output): CellOutput => {
        if (output.kind === 'stream') return { kind: 'stream', name: output.name, ...output.tail.snapshot() };
        if (output.kind === 'rich') return { kind: 'rich', data: output.data, metadata: output.metadata, ...(output.displayId !== undefined ? { displayId: output.displayId } : {}) };
        return output;
      }),
      droppedOutputs: this.dropped,
    };
  }

  private rich(content: Record<string, unknown>): Kept {
    const data = record(content['data']);
    const chars = richSize(data);
    if (this.richChars + chars > MAX_RICH_CHARS) return { kind: 'too-large', chars };
    this.richChars += chars;
    const displayId = record(content['transient'])['display_id'];
    return { kind: 'rich', data, metadata: record(content['metadata']), chars, ...(typeof displayId === 'string' ? { displayId } : {}) };
  }

  private clearIfWaiting(): void {
    if (!this.clearOnNext) return;
    this.clearOnNext = false;
    this.clear();
  }

  private clear(): void {
    this.kept = [];
    this.richChars = 0;
  }

  private forget(output: Kept | undefined): void {
    if (output?.kind === 'rich') this.richChars -= output.chars;
  }

  private push(output: Kept): void {
    this.kept.push(output);
    if (this.kept.length > MAX_OUTPUTS) {
      this.forget(this.kept.shift());
      this.dropped++;
    }
  }
}
