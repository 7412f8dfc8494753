// The NAS core (ssh2, the ignore rules) loads on first use, not at activation, through the one lazy loader
// (src/core/lazy.ts): elsewhere in src/vscode/nas only types come from core/nas.

export { nasCore, type NasCore } from '../../core/lazyModules';
