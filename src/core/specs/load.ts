// The specs core (index.ts: ajv, yaml, the schema, the runner) loads on first use, not when the editor
// activates or the tool list is built: esbuild turns this require() of a bundled module into a lazy
// initialiser, and the vendored libraries are read only then (docs/areas.md, "Activation"). Elsewhere,
// import only types from the specs core, or the library-free types.ts / messages.ts / fileAccess.ts
// (eslint.config.mjs, lazySpecsPattern; test/unit/build/activationLoads.test.ts).

export type SpecsCore = typeof import('./index');

let loaded: SpecsCore | undefined;

export function specsCore(): SpecsCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load, see above
  loaded ??= require('./index') as SpecsCore;
  return loaded;
}
