// The deployment clients pull in the HTTP stack: loaded on first use, not at activation, through the one
// lazy loader (src/core/lazy.ts).

export { deploymentsProbeCore as loadDeploymentsCore } from '../../core/lazyModules';
