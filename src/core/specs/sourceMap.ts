// Where a value of a spec file sits in its text: parse JSON (jsonc-parser's node offsets) or YAML
// (the `yaml` package's node ranges) once, then answer "which line/column range holds this path's
// key or value" for diagnostics, CodeLens and platform errors. Linear in the text: the file is
// bounded in size and nesting before a parser sees it.

import { parseTree, findNodeAtLocation, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode, type Pair } from 'yaml';
import { ENGLISH, type SpecMessages } from './messages';
import { MAX_SPEC_CHARS, type Position, type SpecFormat, type SpecPath } from './types';

export { MAX_SPEC_CHARS } from './types';
/** Deeper nesting than any spec needs is refused before parsing (parsers recurse). */
export const MAX_SPEC_DEPTH = 64;
/**
 * Shape limits checked on the parsed tree before anything walks it again (building the value, merge
 * keys, the schema validator): a spec has a few hundred values; a hostile file within the size cap
 * has hundreds of thousands, and every later pass is work per value (docs/security.md).
 */
export const SPEC_LIMITS = { values: 10_000, entries: 1_000, aliases: 64 };

export interface Span {
  start: number;
  end: number;
}

export interface SyntaxProblem {
  span: Span;
  message: string;
  /** True for our own refusals (size, depth, shape), which no other validator reports. */
  refusal?: boolean;
}

export interface ParsedSource {
  /** The parsed value, or undefined when the text does not parse. */
  value: unknown;
  /** Syntax problems (offsets) with messages. */
  syntaxErrors: SyntaxProblem[];
  /** The span of the key (for properties) or the value (for items) at `path`; the nearest existing ancestor when absent. */
  locate(path: SpecPath, part?: 'key' | 'value'): Span;
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
}

/** Offsets of each line start, for offset ↔ line/column in O(log lines). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) starts.push(index + 1);
    else if (code === 13) {
      if (text.charCodeAt(index + 1) === 10) index++;
      starts.push(index + 1);
    }
  }
  return starts;
}

function positionFinder(text: string): { positionAt(offset: number): Position; offsetAt(position: Position): number } {
  const starts = lineStarts(text);
  return {
    positionAt(offset: number): Position {
      const clamped = Math.max(0, Math.min(offset, text.length));
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((starts[middle] ?? 0) <= clamped) low = middle;
        else high = middle - 1;
      }
      return { line: low, character: clamped - (starts[low] ?? 0) };
    },
    offsetAt(position: Position): number {
      const start = starts[Math.max(0, Math.min(position.line, starts.length - 1))] ?? 0;
      return Math.min(text.length, start + Math.max(0, position.character));
    },
  };
}

/**
 * The deepest bracket nesting (JSON and YAML flow style) or indentation (YAML block style, in
 * indent steps of one column) in one pass; quoted strings are skipped.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  let lineStart = true;
  let indent = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === '\\' && quote === '"') index++;
      else if (char === quote || char === '\n') quote = '';
      continue;
    }
    if (char === '\n') {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (char === ' ' || char === '-') {
        indent++;
        continue;
      }
      lineStart = false;
      // Block nesting grows by at least one column per level; 2+ columns per level is the norm.
      max = Math.max(max, Math.floor(indent / 2));
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '[' || char === '{') max = Math.max(max, ++depth);
    else if ((char === ']' || char === '}') && depth > 0) depth--;
  }
  return max;
}

/** A refusal on the first line; only the first line is looked at (the text may be megabytes). */
function refusedSource(text: string, message: string): ParsedSource {
  const head = text.slice(0, 1024);
  const whole: Span = { start: 0, end: Math.max(0, head.search(/\r?\n|$/)) };
  return { value: undefined, syntaxErrors: [{ span: whole, message, refusal: true }], locate: () => whole, ...positionFinder(head) };
}

export function parseSource(text: string, format: SpecFormat, messages: SpecMessages = ENGLISH): ParsedSource {
  // The size first: nothing reads a text beyond the cap, not even to find its lines.
  if (text.length > MAX_SPEC_CHARS) return refusedSource(text, messages.tooLarge(MAX_SPEC_CHARS / 1024));
  if (nestingDepth(text) > MAX_SPEC_DEPTH) return refusedSource(text, messages.tooDeep(MAX_SPEC_DEPTH));
  const finder = positionFinder(text);
  return format === 'json' ? parseJson(text, finder, messages) : parseYaml(text, finder, messages);
}

/** What a shape walk found: the first limit passed (with where), and how many nodes it visited. */
export interface ShapeCheck {
  problem?: { span: Span; message: string };
  visited: number;
}

/**
 * Walks a parsed tree once, stopping at the first limit passed: more values in all than
 * `SPEC_LIMITS.values`, more entries in one mapping or list than `.entries`, more aliases than
 * `.aliases`. A collection's size is read before its children are visited, so a huge one costs one step.
 */
export function checkShape<N>(root: N | undefined, shape: { children(node: N): readonly N[] | undefined; isAlias(node: N): boolean; span(node: N, parent?: N): Span }, messages: SpecMessages, limits = SPEC_LIMITS): ShapeCheck {
  // Each node with the node it was found in (a YAML collection is reported on its pair's key).
  const stack: [N, N | undefined][] = root === undefined ? [] : [[root, undefined]];
  let visited = 0;
  let aliases = 0;
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    const problem = (message: string): ShapeCheck => ({ visited, problem: { span: shape.span(node, parent), message } });
    if (++visited > limits.values) return problem(messages.tooManyValues(limits.values));
    if (shape.isAlias(node) && ++aliases > limits.aliases) return problem(messages.tooManyAliases(limits.aliases));
    const children = shape.children(node);
    if (!children) continue;
    if (children.length > limits.entries) return problem(messages.tooManyEntries(limits.entries));
    for (const child of children) stack.push([child, node]);
  }
  return { visited };
}

function parseJson(text: string, finder: ReturnType<typeof positionFinder>, messages: SpecMessages): ParsedSource {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const syntaxErrors: SyntaxProblem[] = errors.slice(0, MAX_SYNTAX_ERRORS).map((error) => ({ span: { start: error.offset, end: error.offset + Math.max(1, error.length) }, message: messages.jsonSyntax(printParseErrorCode(error.error)) }));
  if (syntaxErrors.length === 0) {
    const shape = checkShape(root, JSON_SHAPE, messages);
    if (shape.problem) syntaxErrors.push({ ...shape.problem, refusal: true });
  }
  let value: unknown;
  if (syntaxErrors.length === 0) {
    try {
      // JSON.parse keeps "__proto__" an own property (never a prototype), unlike building objects by hand.
      value = JSON.parse(text);
    } catch (error) {
      syntaxErrors.push({ span: { start: 0, end: 1 }, message: error instanceof Error ? error.message : String(error) });
    }
  }
  const rootSpan: Span = root ? { start: root.offset, end: root.offset + Math.min(root.length, 1) } : { start: 0, end: 0 };
  return {
    value,
    syntaxErrors,
    locate(path, part = 'key') {
      if (!root) return rootSpan;
      for (let length = path.length; length > 0; length--) {
        const node = findNodeAtLocation(root, path.slice(0, length) as (string | number)[]);
        if (!node) continue;
        return jsonSpan(node, length === path.length ? part : 'key');
      }
      return rootSpan;
    },
    ...finder,
  };
}

/** At most this many syntax errors are kept (a broken file has one per token). */
const MAX_SYNTAX_ERRORS = 100;

/** A JSON tree's shape: a property counts as one node with its key and value; an object's entries are its properties. */
const JSON_SHAPE = {
  children: (node: JsonNode): readonly JsonNode[] | undefined => node.children,
  isAlias: (): boolean => false,
  span: (node: JsonNode): Span => jsonSpan(node.type === 'property' ? (node.children?.[0] ?? node) : node, 'key'),
};

function jsonSpan(node: JsonNode, part: 'key' | 'value'): Span {
  const property = node.parent?.type === 'property' ? node.parent : undefined;
  const key = property?.children?.[0];
  if (part === 'key' && key) return { start: key.offset, end: key.offset + key.length };
  // Objects and arrays: their first character only (a whole block would underline many lines).
  if (node.type === 'object' || node.type === 'array') return { start: node.offset, end: node.offset + 1 };
  return { start: node.offset, end: node.offset + node.length };
}

function parseYaml(text: string, finder: ReturnType<typeof positionFinder>, messages: SpecMessages): ParsedSource {
  // maxAliasCount (below) bounds alias expansion ("billion laughs"). The library's own duplicate-key
  // check compares each key with all before it (quadratic); duplicateKeys does it with a set.
  const parsed: Document = parseDocument(text, { prettyErrors: false, uniqueKeys: false, strict: true });
  const syntaxErrors: SyntaxProblem[] = parsed.errors.slice(0, MAX_SYNTAX_ERRORS).map((error) => ({ span: { start: error.pos[0], end: Math.max(error.pos[1], error.pos[0] + 1) }, message: firstLine(error.message) }));
  if (syntaxErrors.length === 0) {
    // Before anything else walks the tree: building the value follows aliases and merge keys.
    const shape = checkShape<unknown>(parsed.contents ?? undefined, YAML_SHAPE, messages);
    if (shape.problem) syntaxErrors.push({ ...shape.problem, refusal: true });
  }
  if (syntaxErrors.length === 0) syntaxErrors.push(...duplicateKeys(parsed.contents as YamlNode | null, messages));
  let value: unknown;
  if (syntaxErrors.length === 0) {
    try {
      value = parsed.toJS({ maxAliasCount: 50 });
    } catch (error) {
      syntaxErrors.push({ span: { start: 0, end: 1 }, message: error instanceof Error ? firstLine(error.message) : String(error) });
    }
  }
  const root = parsed.contents as YamlNode | null;
  const rootSpan: Span = root?.range ? { start: root.range[0], end: root.range[0] + 1 } : { start: 0, end: 0 };
  return {
    value,
    syntaxErrors,
    locate(path, part = 'key') {
      let node: YamlNode | null = root;
      let pair: Pair | undefined;
      let span = rootSpan;
      for (let index = 0; index < path.length; index++) {
        const step = path[index];
        pair = undefined;
        let next: YamlNode | null = null;
        if (isMap(node) && typeof step === 'string') {
          pair = node.items.find((item) => (isScalar(item.key) ? String(item.key.value) === step : false));
          next = (pair?.value as YamlNode | null | undefined) ?? null;
          if (!pair) return span;
        } else if (isSeq(node) && typeof step === 'number') {
          next = (node.items[step] as YamlNode | undefined) ?? null;
          if (!next) return span;
        } else return span;
        const last = index === path.length - 1;
        const keyNode = pair?.key as YamlNode | undefined;
        const usePart = last ? part : 'key';
        if (usePart === 'key' && keyNode?.range) span = { start: keyNode.range[0], end: keyNode.range[1] };
        else if (next?.range) span = isMap(next) || isSeq(next) ? { start: next.range[0], end: next.range[0] + 1 } : { start: next.range[0], end: next.range[1] };
        else if (keyNode?.range) span = { start: keyNode.range[0], end: keyNode.range[1] };
        node = next;
      }
      return span;
    },
    ...finder,
  };
}

/** A YAML tree's shape: a mapping's entries are its pairs, a pair's children its key and value. */
const YAML_SHAPE = {
  children(node: unknown): readonly unknown[] | undefined {
    if (isMap(node) || isSeq(node)) return node.items;
    if (isPair(node)) return [node.key, node.value].filter((part) => part !== null && part !== undefined);
    return undefined;
  },
  isAlias: (node: unknown): boolean => isAlias(node),
  span(node: unknown, parent?: unknown): Span {
    const keyed = isPair(node) ? node : isPair(parent) && parent.value === node ? parent : undefined;
    const range = (keyed ? (keyed.key as YamlNode | null)?.range : (node as YamlNode | null)?.range) ?? [0, 1];
    if (keyed) return { start: range[0], end: range[1] };
    return isMap(node) || isSeq(node) ? { start: range[0], end: range[0] + 1 } : { start: range[0], end: range[1] };
  },
};

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** Keys set twice in one mapping (the later one would win silently), in one pass over the tree. */
function duplicateKeys(root: YamlNode | null, messages: SpecMessages): { span: Span; message: string }[] {
  const found: { span: Span; message: string }[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0 && found.length < 100) {
    const node = stack.pop();
    if (isMap(node)) {
      const keys = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key !== undefined) {
          if (keys.has(key) && pair.key && (pair.key as YamlNode).range) {
            const range = (pair.key as YamlNode).range!;
            found.push({ span: { start: range[0], end: range[1] }, message: messages.duplicateKey(key.slice(0, 60)) });
          }
          keys.add(key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return found;
}
