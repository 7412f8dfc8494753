// The NAS core (ssh2, the ignore rules) loads on first use, not at activation, like the compute core
// (lazyCore.ts): elsewhere in src/vscode/nas only types come from core/nas.

export type NasCore = typeof import('../../core/nas/index');

let loaded: NasCore | undefined;

export function nasCore(): NasCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load, see above
  loaded ??= require('../../core/nas/index') as NasCore;
  return loaded;
}
