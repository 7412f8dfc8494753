// The profiles area's interface for other areas (lint: areas import each other only through index.ts).
// Kept light (no commands): the error and client plumbing import it. The profile, secret and key command
// lists are composed by commands/index.ts, part of the composition root (docs/areas.md).
export { SECRET_LABELS } from './profileRecord';
export { knownProfileLabels } from './sandboxLabels';
export type { ProfileStore } from './profileStore';
