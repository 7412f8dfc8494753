// The notebook kernel client (src/core/notebooks, with @jupyterlab/services and ws in dist/vendor) is loaded
// the first time a cell runs on a Compute kernel, never at activation (docs/areas.md, "Activation").

export type KernelCore = typeof import('../../core/notebooks/index');

let loaded: KernelCore | undefined;

export function kernelCore(): KernelCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load, see above
  loaded ??= require('../../core/notebooks/index') as KernelCore;
  return loaded;
}
