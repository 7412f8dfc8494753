// The resources area's interface for other areas (lint: areas import each other only through index.ts).
// Its tree and commands are composed in views/index.ts (docs/areas.md).
export type { ResourceFilterStore } from './resourceFilter';
export { flattenRegions, regionPickItem, searchDevices, type RegionChoice, type RegionPickItem } from './resourceSearch';
