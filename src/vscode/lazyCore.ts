// The compute core (crypto, undici, the catalog) is loaded on first use, not at activation, through the
// one lazy loader (src/core/lazy.ts). Elsewhere in src/vscode, import only *types* from
// '../core/compute/*' (its small errors and operations modules excepted): a lint rule
// (eslint.config.mjs, lazyCorePattern) enforces it.

export { computeCore, type ComputeCore } from '../core/lazyModules';
