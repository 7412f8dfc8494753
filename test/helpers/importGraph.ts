// The import graph of the sources, read as text (no compiler, no dependency): every relative import,
// export … from, import() and require(), type-only ones included (a type import is still a dependency a
// reader follows). Used by test/unit/architecture/ to keep the code free of import circles.

import * as path from 'node:path';

export type Graph = Map<string, Set<string>>;

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** File → the files it imports, over root-relative paths with forward slashes (`sources`: path → text). */
export function importGraph(sources: ReadonlyMap<string, string>): Graph {
  const known = new Set(sources.keys());
  const resolve = (from: string, spec: string): string | undefined => {
    if (!spec.startsWith('.')) return undefined;
    const base = path.posix.join(path.posix.dirname(from), spec).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => known.has(candidate));
  };
  const graph: Graph = new Map();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(file, match[1] ?? match[2] ?? match[3] ?? '');
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of a graph (Tarjan): a group of more than one node is an import circle. */
export function stronglyConnected(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

export function circles(graph: Graph): string[][] {
  return stronglyConnected(graph).filter((group) => group.length > 1);
}

/** The rooms of a layer (each direct child folder or file of `layer`) and which rooms import which. */
export function roomGraph(files: Graph, layer: string): Graph {
  const prefix = `${layer}/`;
  const roomOf = (file: string): string | undefined => (file.startsWith(prefix) ? file.slice(prefix.length).split('/')[0] : undefined);
  const rooms: Graph = new Map();
  for (const [file, targets] of files) {
    const from = roomOf(file);
    if (from === undefined) continue;
    if (!rooms.has(from)) rooms.set(from, new Set());
    for (const target of targets) {
      const to = roomOf(target);
      if (to !== undefined && to !== from) rooms.get(from)!.add(to);
    }
  }
  return rooms;
}

/** The longest chain of rooms importing rooms (a circle counts as one room), and one such chain. */
export function floors(rooms: Graph): { floors: number; chain: string[] } {
  const groups = stronglyConnected(rooms);
  const groupOf = new Map<string, number>();
  groups.forEach((group, i) => group.forEach((room) => groupOf.set(room, i)));
  const memo = new Map<number, string[]>();
  const chainFrom = (group: number): string[] => {
    const known = memo.get(group);
    if (known) return known;
    let best: string[] = [];
    for (const room of groups[group]!) {
      for (const target of rooms.get(room) ?? []) {
        const other = groupOf.get(target)!;
        if (other === group) continue;
        const chain = chainFrom(other);
        if (chain.length > best.length) best = chain;
      }
    }
    const chain = [groups[group]!.join('+'), ...best];
    memo.set(group, chain);
    return chain;
  };
  let longest: string[] = [];
  groups.forEach((_, i) => {
    const chain = chainFrom(i);
    if (chain.length > longest.length) longest = chain;
  });
  return { floors: longest.length, chain: longest };
}
