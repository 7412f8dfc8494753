// Incremental markdown for a streamed reply: completed top-level blocks are rendered once and frozen
// (as chunks); each update parses and renders only the unfinished tail (usually the last block). The
// concatenated output is byte-identical to `md.render(fullText)` (unit-tested with random splits).
//
// Why it is exact: markdown is parsed line by line, and once a later top-level block has started on a
// complete line (whose next line is complete too, see lastSettledBlockStart), the blocks before it are
// closed and later text cannot change them. The one cross-block dependency is reference definitions
// (`[id]: url`), which may be used before they are defined. Every parse records which labels it looked
// up; when a definition appears, changes or disappears, only the frozen chunks that looked that label
// up are rendered again (each alone: a chunk ends where a settled block starts). A reply citing many
// sources with definitions at the end therefore costs one chunk render per definition, not a rebuild.
// DOM-free: the view applies the updates; tests and the benchmark run it on Node.

import type MarkdownIt from 'markdown-it';
import type { Markdown } from './markdown';

type Env = MarkdownIt.Env;
type References = NonNullable<Env['references']>;
type Reference = References[string];

export interface RenderUpdate {
  /** HTML of chunks frozen since the previous update, in order; append each after the chunks shown. */
  frozenAppend: string[];
  /** Chunks shown earlier whose HTML changed (a reference definition they use arrived or changed). */
  replaced: { index: number; html: string }[];
  /** HTML of the unfinished tail; replaces the previous tail. */
  tail: string;
}

export interface IncrementalStats {
  /** Tail parses + renders (one per update). */
  updates: number;
  /** Top-level blocks frozen. */
  blocksFrozen: number;
  /** Frozen chunks rendered again because a reference definition they use changed. */
  chunksRerendered: number;
  /** Characters parsed in total (the cost driver); a naive renderer parses the whole text every time. */
  parsedChars: number;
}

interface Chunk {
  source: string;
  html: string;
}

export class IncrementalMarkdown {
  /**
   * The unfrozen text (from a line start), line endings normalized the way markdown-it normalizes them.
   * Kept apart from the frozen text: slicing one ever-growing string would copy all of it on each update.
   */
  private tailSource = '';
  /** A trailing '\r' is held back until we know whether '\n' follows (CRLF split across deltas). */
  private pendingCarriageReturn = false;
  private readonly chunks: Chunk[] = [];
  /** Index of the first chunk the view has not received yet. */
  private shownChunks = 0;
  private readonly replacedSinceUpdate = new Set<number>();
  /** Label → the chunks whose parse looked it up. */
  private readonly dependents = new Map<string, Set<number>>();
  private tailHtml = '';
  /** Reference definitions found in the frozen part (first definition of a label wins, as in markdown-it). */
  private readonly frozenReferences: References = {};
  /** Definitions the previous tail parse found that are not frozen yet. */
  private tailReferences = new Map<string, Reference>();
  private changed = false;
  /** After finish() every line is complete, so every block boundary is settled. */
  private ended = false;
  readonly stats: IncrementalStats = { updates: 0, blocksFrozen: 0, chunksRerendered: 0, parsedChars: 0 };

  constructor(private readonly md: Markdown) {
    instrument(md);
  }

  /** The text so far (normalized). */
  get text(): string {
    return this.chunks.map((chunk) => chunk.source).join('') + this.tailSource;
  }

  /** The whole HTML as of the last update. */
  get html(): string {
    return this.chunks.map((chunk) => chunk.html).join('') + this.tailHtml;
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
    this.tailSource += normalize(text);
    this.changed = true;
  }

  /** Whether `update()` would produce something new. */
  get dirty(): boolean {
    return this.changed || this.replacedSinceUpdate.size > 0 || this.shownChunks < this.chunks.length;
  }

  /** The stream ended: a held-back '\r' becomes a line break, and the final render happens. */
  finish(): RenderUpdate {
    if (!this.ended) {
      this.ended = true;
      this.changed = true;
    }
    if (this.pendingCarriageReturn) {
      this.pendingCarriageReturn = false;
      this.tailSource += '\n';
      this.changed = true;
    }
    return this.update();
  }

  update(): RenderUpdate {
    if (this.changed) {
      this.changed = false;
      this.renderTail();
    }
    const replaced = [...this.replacedSinceUpdate]
      .filter((index) => index < this.shownChunks)
      .sort((a, b) => a - b)
      .map((index) => ({ index, html: this.chunks[index]?.html ?? '' }));
    const update: RenderUpdate = {
      frozenAppend: this.chunks.slice(this.shownChunks).map((chunk) => chunk.html),
      replaced,
      tail: this.tailHtml,
    };
    this.shownChunks = this.chunks.length;
    this.replacedSinceUpdate.clear();
    return update;
  }

  private renderTail(): void {
    const tail = this.tailSource;
    const lookups = new Lookups();
    // The tail sees the frozen definitions behind its own; its own keys are the tail's definitions.
    const tailReferences: References = {};
    const definitionLines: number[] = [];
    const env: Env = { references: lookups.recording(tailReferences, this.frozenReferences), [DEFINITION_LINES]: definitionLines, [LOOKUPS]: lookups };
    const tokens = this.md.parse(tail, env);
    this.stats.updates++;
    this.stats.parsedChars += tail.length;

    const changed = this.changedLabels(tailReferences);
    const line = lastSettledBlockLine(tokens, definitionLines, this.ended ? Number.POSITIVE_INFINITY : countLineBreaks(tail));
    const lastBlock = line === undefined ? undefined : firstTopLevelTokenFrom(tokens, line);
    const chunksBefore = this.chunks.length;
    if (line !== undefined && lastBlock !== undefined && line > 0) {
      // Everything before the last settled top-level block is complete: render it once and freeze it.
      const offset = offsetOfLine(tail, line);
      const index = this.chunks.length;
      this.chunks.push({ source: tail.slice(0, offset), html: this.md.renderer.render(tokens.slice(0, lastBlock), this.md.options, env) });
      this.addDependents(index, lookups.labelsOfFirstInlines(countInlineTokens(tokens, lastBlock)));
      this.stats.blocksFrozen += countTopLevelBlocks(tokens, lastBlock) + definitionLines.filter((start) => start < line).length;
      this.collectReferences(tail.slice(0, offset));
      this.tailSource = tail.slice(offset);
      this.tailHtml = this.md.renderer.render(tokens.slice(lastBlock), this.md.options, env);
    } else {
      this.tailHtml = this.md.renderer.render(tokens, this.md.options, env);
    }
    // Definitions frozen just now are frozen references from here on, no longer the tail's.
    for (const label of this.tailReferences.keys()) if (Object.prototype.hasOwnProperty.call(this.frozenReferences, label)) this.tailReferences.delete(label);
    this.rerenderChunksUsing(changed, chunksBefore);
  }

  /**
   * Labels whose definition differs from the previous update's. Called right after the tail parse, before
   * anything is frozen: the tail's own definitions are then exactly the ones not frozen before.
   */
  private changedLabels(tailReferences: References): string[] {
    const current = new Map<string, Reference>();
    for (const label of Object.keys(tailReferences)) current.set(label, tailReferences[label] as Reference);
    const changed: string[] = [];
    for (const [label, previous] of this.tailReferences) if (!sameReference(previous, current.get(label))) changed.push(label);
    for (const label of current.keys()) if (!this.tailReferences.has(label)) changed.push(label);
    this.tailReferences = current;
    return changed;
  }

  /** Renders again the chunks (frozen before this update) that looked up one of `labels`. */
  private rerenderChunksUsing(labels: readonly string[], chunkLimit: number): void {
    if (labels.length === 0) return;
    const indexes = new Set<number>();
    for (const label of labels) for (const index of this.dependents.get(label) ?? []) if (index < chunkLimit) indexes.add(index);
    if (indexes.size === 0) return;
    const tailDefinitions: References = Object.fromEntries(this.tailReferences);
    for (const index of indexes) {
      const chunk = this.chunks[index];
      if (!chunk) continue;
      const lookups = new Lookups();
      const html = this.md.render(chunk.source, { references: lookups.recording({}, tailDefinitions, this.frozenReferences), [LOOKUPS]: lookups });
      this.addDependents(index, lookups.labelsOfFirstInlines(Number.POSITIVE_INFINITY));
      this.stats.chunksRerendered++;
      this.stats.parsedChars += chunk.source.length;
      if (html === chunk.html) continue;
      chunk.html = html;
      this.replacedSinceUpdate.add(index);
    }
  }

  private addDependents(index: number, labels: ReadonlySet<string>): void {
    for (const label of labels) {
      let set = this.dependents.get(label);
      if (!set) this.dependents.set(label, (set = new Set()));
      set.add(index);
    }
  }

  /** Definitions in text that is being frozen (block-level parse only; they cannot span blocks). */
  private collectReferences(frozenText: string): void {
    if (!frozenText.includes(']:')) return;
    const env: Env = { references: this.frozenReferences };
    this.md.block.parse(frozenText, this.md, env, []);
  }
}

/**
 * The labels a parse looks up, each with the inline token (in token order) whose parse looked it up, so a
 * chunk depends only on the labels its own blocks use. Lookups of the block phase (a definition checking
 * whether its label is taken) do not change any HTML and are not recorded.
 */
class Lookups {
  /** Index of the inline token being parsed; -1 during the block phase. */
  inlineIndex = -1;
  private readonly seen: { inline: number; label: string }[] = [];

  /**
   * A references object for markdown-it: new definitions land in `own`; reads see `own`, then each of
   * `behind` in order (a lookup chain without prototypes, which V8 handles poorly when they keep growing).
   */
  recording(own: References, ...behind: References[]): References {
    return new Proxy(own, {
      get: (target, key): unknown => {
        if (typeof key !== 'string') return undefined;
        if (this.inlineIndex >= 0) this.seen.push({ inline: this.inlineIndex, label: key });
        if (Object.hasOwn(target, key)) return target[key];
        for (const references of behind) if (Object.hasOwn(references, key)) return references[key];
        return undefined;
      },
    });
  }

  labelsOfFirstInlines(count: number): Set<string> {
    return new Set(this.seen.filter((lookup) => lookup.inline < count).map((lookup) => lookup.label));
  }
}

function countInlineTokens(tokens: readonly { type: string }[], end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) if (tokens[i]?.type === 'inline') count++;
  return count;
}

function sameReference(a: Reference | undefined, b: Reference | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.href === b.href && a.title === b.title;
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
 * The line of the last top-level block whose start is settled: its first line and the line after it are
 * complete. A line still being typed can change meaning as it grows ("1" becomes "1. item" and continues
 * the list above), and a table is only recognized from its next line (the delimiter row), so a block start
 * is only trusted once both lines are complete. The blocks before it are then closed for good. Reference
 * definitions count as blocks (they render to nothing), so a run of them at the end is frozen as it comes.
 */
function lastSettledBlockLine(tokens: readonly TokenShape[], definitionLines: readonly number[], completeLines: number): number | undefined {
  let best: number | undefined;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token && isTopLevelBlockStart(token) && token.map && token.map[0] + 2 <= completeLines) {
      best = token.map[0];
      break;
    }
  }
  for (const line of definitionLines) if (line + 2 <= completeLines && (best === undefined || line > best)) best = line;
  return best;
}

/** Index of the first top-level token starting at or after `line` (tokens.length when none does). */
function firstTopLevelTokenFrom(tokens: readonly TokenShape[], line: number): number {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token && isTopLevelBlockStart(token) && token.map && token.map[0] >= line) return i;
  }
  return tokens.length;
}

/** The env key under which a parse collects the first lines of top-level reference definitions. */
const DEFINITION_LINES = 'incrementalMarkdownDefinitionLines';
/** The env key of the parse's Lookups (told when each inline token's parse starts). */
const LOOKUPS = 'incrementalMarkdownLookups';
const instrumented = new WeakSet<Markdown>();

/**
 * Two hooks, active only for parses that carry the env keys above (other renders are unaffected):
 * markdown-it parses a reference definition into a hidden token and strips it before rendering, so a core
 * rule just before the strip notes where each top-level one starts; and each inline token's parse is
 * counted, so lookups are attributed to the block that made them.
 */
function instrument(md: Markdown): void {
  if (instrumented.has(md)) return;
  instrumented.add(md);
  const rule = (state: { env: Env; tokens: unknown[] }): void => {
    const sink = state.env[DEFINITION_LINES] as number[] | undefined;
    if (!sink) return;
    for (const token of state.tokens as unknown as (TokenShape & { type: string })[]) {
      if (token.type === 'reference_definition' && token.level === 0 && token.map) sink.push(token.map[0]);
    }
  };
  // The core rule parses the inline tokens one by one, in token order, each with one call of inline.parse.
  // An image parses its alt text with a nested call: only the outermost calls are inline tokens.
  const inline = md.inline;
  const parse = inline.parse.bind(inline);
  let depth = 0;
  inline.parse = (src, state, env, tokens): void => {
    const lookups = (env as Env)[LOOKUPS] as Lookups | undefined;
    if (lookups && depth === 0) lookups.inlineIndex++;
    depth++;
    try {
      parse(src, state, env, tokens);
    } finally {
      depth--;
    }
  };
  try {
    md.core.ruler.before('strip_references', 'incremental_definition_lines', rule as unknown as Parameters<Markdown['core']['ruler']['before']>[2]);
  } catch {
    // A markdown-it without definition tokens: definitions are then frozen with the block after them.
  }
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
