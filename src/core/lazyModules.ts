// The heavy parts of the core the editor loads on first use (lazy.ts): crypto and undici for the compute
// client, ssh2 for NAS, the model client, the deployment probes. A new lazily loaded module is one more line
// here; eslint.config.mjs allows require() in this file and specs/load.ts only, and the import rules
// (lazyCorePattern, lazySpecsPattern) keep the modules' values out of the editor layer's static imports
// (test/unit/build/activationLoads.test.ts checks the bundle).

import { lazy } from './lazy';

export type ComputeCore = typeof import('./compute/index');
export type NasCore = typeof import('./nas/index');
export type InferenceCore = typeof import('./inference/index');
export type ProbeCore = typeof import('./deployments/probe');

export const computeCore = lazy(() => require('./compute/index') as ComputeCore);
export const nasCore = lazy(() => require('./nas/index') as NasCore);
export const inferenceCore = lazy(() => require('./inference/index') as InferenceCore);
export const deploymentsProbeCore = lazy(() => require('./deployments/probe') as ProbeCore);
export type MachinesCore = typeof import('./machines/index');
export const machinesCore = lazy(() => require('./machines/index') as MachinesCore);
export type ToolRunner = typeof import('./tools/run');
export const toolRunner = lazy(() => require('./tools/run') as ToolRunner);
