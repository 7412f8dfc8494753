// The one lazy loader. The heavy parts of the core (crypto and undici for the compute client, ssh2 for
// NAS, the model client, the deployment probes, ajv and yaml for specs) load on first use, not when the
// editor activates or the tool list is built: esbuild turns each require() of a bundled module below into
// a lazy initialiser, so nothing runs until a command, a tree or a test first asks (docs/areas.md,
// "Activation"). A new lazily loaded module is one more line here; eslint.config.mjs allows require()
// in this file only, and the import rules (lazyCorePattern, lazySpecsPattern) keep the modules' values
// out of the editor layer's static imports (test/unit/build/activationLoads.test.ts checks the bundle).

/** `load` run once, on the first call; later calls return the same module. */
export function lazy<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

export type ComputeCore = typeof import('./compute/index');
export type NasCore = typeof import('./nas/index');
export type InferenceCore = typeof import('./inference/index');
export type ProbeCore = typeof import('./deployments/probe');
export type SpecsCore = typeof import('./specs/index');

export const computeCore = lazy(() => require('./compute/index') as ComputeCore);
export const nasCore = lazy(() => require('./nas/index') as NasCore);
export const inferenceCore = lazy(() => require('./inference/index') as InferenceCore);
export const deploymentsProbeCore = lazy(() => require('./deployments/probe') as ProbeCore);
export const specsCore = lazy(() => require('./specs/index') as SpecsCore);
