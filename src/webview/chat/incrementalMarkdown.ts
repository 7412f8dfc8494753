// Incremental markdown for a streamed reply: completed top-level blocks are rendered once and frozen;
// each update parses and renders only the unfinished tail (usually the last block). The concatenated
// output is byte-identical to `md.render(fullText)` (unit-tested with random splits).
//
// Why it is exact: markdown is parsed line by line, and once a later top-level block has started on a
// complete line (whose next line is complete too, see lastSettledBlockStart), the blocks before it are
// closed and later text cannot change them. The one cross-block dependency is
// reference definitions (`[id]: url`), which may be used before they are defined: when the set of
// definitions changes while blocks are frozen, everything is rebuilt once from the start.
// DOM-free: the view applies the updates; tests and the benchmark run it on Node.

import type MarkdownIt from 'markdown-it';
import type { Markdown } from './markdown';

type Env = MarkdownIt.Env;
type References = NonNullable<Env['references']>;

export interface RenderUpdate {
  /** HTML of blocks frozen since the previous update; append it after the frozen HTML already shown. */
  frozenAppend: string;
  /** HTML of the unfinished tail; replaces the previous tail. */
  tail: string;
  /** The frozen HTML was rebuilt: discard what is shown and use `frozenAppend` as the whole frozen part. */
  reset: boolean;
}

export interface IncrementalStats {
  /** Tail parses + renders (one per update). */
  updates: number;
  /** Top-level blocks frozen. */
  blocksFrozen: number;
  /** Rebuilds from the start (reference definitions changed). */
  rebuilds: number;
  /** Characters parsed in total (the cost driver); a naive renderer parses the whole text every time. */
  parsedChars: number;
}

export class IncrementalMarkdown {
  /** The text so far, with line endings normalized the way markdown-it normalizes them. */
  private source = '';
  /** A trailing '\r' is held back until we know whether '\n' follows (CRLF split across deltas). */
  private pendingCarriageReturn = false;
  /** Offset in `source` where the unfrozen tail starts (always the start of a line). */
  private cut = 0;
  private frozenHtml = '';
  private frozenSinceUpdate = '';
  private resetPending = false;
  private tailHtml = '';
  /** Reference definitions found in the frozen part, passed to every tail parse. */
  private frozenReferences: References = {};
  /** Signature of all definitions seen by the previous parse, to notice a new or changed one. */
  private referenceSignature = '';
  private changed = false;
  /** After finish() every line is complete, so every block boundary is settled. */
  private ended = false;
  readonly stats: IncrementalStats = { updates: 0, blocksFrozen: 0, rebuilds: 0, parsedChars: 0 };

  constructor(private readonly md: Markdown) {}

  get text(): string {
    return this.source;
  }

  /** The whole HTML as of the last update. */
  get html(): string {
    return this.frozenHtml + this.tailHtml;
  }

  /** Adds streamed text. Cheap: rendering happens in `update()`, at most once per frame. */
  append(delta: string): void {
    if (delta.length === 0) return;
    this.ended = false;
    let text = delta;
    if (this.pendingCarriageReturn) {
      text = `\r${text}`;
      this.pendingCarriageReturn = false;
    }
    if (text.endsWith('\r')) {
      this.pendingCarriageReturn = true;
      text = text.slice(0, -1);
    }
    this.source += normalize(text);
    this.changed = true;
  }

  /** Whether `update()` would produce something new. */
  get dirty(): boolean {
    return this.changed || this.resetPending || this.frozenSinceUpdate.length > 0;
  }

  /** The stream ended: a held-back '\r' becomes a line break, and the final render happens. */
  finish(): RenderUpdate {
    if (!this.ended) {
      this.ended = true;
      this.changed = true;
    }
    if (this.pendingCarriageReturn) {
      this.pendingCarriageReturn = false;
      this.source += '\n';
      this.changed = true;
    }
    return this.update();
  }

  update(): RenderUpdate {
    if (this.changed) {
      this.changed = false;
      this.renderTail();
    }
    const update: RenderUpdate = {
      frozenAppend: this.resetPending ? this.frozenHtml : this.frozenSinceUpdate,
      tail: this.tailHtml,
      reset: this.resetPending,
    };
    this.frozenSinceUpdate = '';
    this.resetPending = false;
    return update;
  }

  private renderTail(): void {
    const tail = this.source.slice(this.cut);
    const env: Env = { references: { ...this.frozenReferences } };
    const tokens = this.md.parse(tail, env);
    this.stats.updates++;
    this.stats.parsedChars += tail.length;

    const signature = referenceSignature(env.references);
    if (signature !== this.referenceSignature) {
      this.referenceSignature = signature;
      if (this.cut > 0) {
        this.rebuild();
        return;
      }
    }

    const lastBlock = lastSettledBlockStart(tokens, this.ended ? Number.POSITIVE_INFINITY : countLineBreaks(tail));
    const lastToken = lastBlock === undefined ? undefined : tokens[lastBlock];
    if (lastBlock !== undefined && lastBlock > 0 && lastToken?.map) {
      // Everything before the last top-level block is complete: render it once and freeze it.
      const frozen = this.md.renderer.render(tokens.slice(0, lastBlock), this.md.options, env);
      this.frozenHtml += frozen;
      this.frozenSinceUpdate += frozen;
      this.stats.blocksFrozen += countTopLevelBlocks(tokens, lastBlock);
      const offset = offsetOfLine(tail, lastToken.map[0]);
      this.collectReferences(tail.slice(0, offset));
      this.cut += offset;
      this.tailHtml = this.md.renderer.render(tokens.slice(lastBlock), this.md.options, env);
    } else {
      this.tailHtml = this.md.renderer.render(tokens, this.md.options, env);
    }
  }

  /** Reference definitions change earlier blocks' links: unfreeze everything and start over. */
  private rebuild(): void {
    this.stats.rebuilds++;
    this.cut = 0;
    this.frozenHtml = '';
    this.frozenSinceUpdate = '';
    this.frozenReferences = {};
    this.resetPending = true;
    this.renderTail();
  }

  /** Definitions in text that is being frozen (block-level parse only; they cannot span blocks). */
  private collectReferences(frozenText: string): void {
    if (!frozenText.includes(']:')) return;
    const env: Env = { references: this.frozenReferences };
    this.md.block.parse(frozenText, this.md, env, []);
    this.frozenReferences = env.references ?? {};
  }
}

/** markdown-it's own input normalization (CRLF/CR to LF, NUL to U+FFFD), applied as text arrives. */
function normalize(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
}

type TokenShape = { level: number; nesting: number; map: [number, number] | null };

function isTopLevelBlockStart(token: TokenShape): boolean {
  return token.level === 0 && token.nesting !== -1 && token.map !== null;
}

/**
 * The last top-level block whose start is settled: its first line and the line after it are complete.
 * A line still being typed can change meaning as it grows ("1" becomes "1. item" and continues the list
 * above), and a table is only recognized from its next line (the delimiter row), so a block start is only
 * trusted once both lines are complete. The blocks before it are then closed for good.
 */
function lastSettledBlockStart(tokens: readonly TokenShape[], completeLines: number): number | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token && isTopLevelBlockStart(token) && token.map && token.map[0] + 2 <= completeLines) return i;
  }
  return undefined;
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function countTopLevelBlocks(tokens: readonly TokenShape[], end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) {
    const token = tokens[i];
    if (token && isTopLevelBlockStart(token)) count++;
  }
  return count;
}

/** Offset of the start of 0-based `line` in `text`. */
function offsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let i = 0; i < line; i++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset;
}

function referenceSignature(references: References | undefined): string {
  if (!references) return '';
  const labels = Object.keys(references);
  if (labels.length === 0) return '';
  return JSON.stringify(labels.sort().map((label) => [label, references[label]]));
}
