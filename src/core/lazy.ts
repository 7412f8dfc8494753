// The one lazy loader: `lazy(() => require('./module'))` loads a heavy part of the core on first use, not
// when the editor activates or the tool list is built — esbuild turns each require() of a bundled module
// into a lazy initialiser (docs/areas.md, "Activation"). The modules the editor loads this way are listed
// in lazyModules.ts; the specs core has its own line in specs/load.ts, so that the MCP server's bundle (which
// imports the specs loader but the other cores statically) gets no require() edge to them: an edge wraps a
// module and what it imports in initialisers, and zod, bundled there, then initialises out of order.

/** `load` run once, on the first call; later calls return the same module. */
export function lazy<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
