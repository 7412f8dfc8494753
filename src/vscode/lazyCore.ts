// The compute core (crypto, undici, the catalog) is loaded on first use, not at activation: activation
// only registers contributions. esbuild turns a require() of a bundled module into a lazy initialiser,
// so nothing below runs until a command, tree or test first asks for it. Elsewhere in src/vscode, import
// only *types* from '../core/compute/*' (its small errors and operations modules excepted): a lint rule
// (eslint.config.mjs, lazyCorePattern) enforces it.

export type ComputeCore = typeof import('../core/compute/index');

let loaded: ComputeCore | undefined;

export function computeCore(): ComputeCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load, see above
  loaded ??= require('../core/compute/index') as ComputeCore;
  return loaded;
}
