// The specs core (index.ts: ajv, yaml, the schema, the runner) loads on first use, not when the editor
// activates or the tool list is built, through the one lazy loader (core/lazy.ts); the vendored libraries
// are read only then (docs/areas.md, "Activation"). Elsewhere, import only types from the specs core, or the
// library-free types.ts / messages.ts / fileAccess.ts (eslint.config.mjs, lazySpecsPattern;
// test/unit/build/activationLoads.test.ts). Its line is here, not in lazyModules.ts: see lazy.ts.

import { lazy } from '../lazy';

export type SpecsCore = typeof import('./index');

export const specsCore = lazy(() => require('./index') as SpecsCore);
