// The profiles area's interface for other areas and the composition root (lint: areas import each other
// only through index.ts; docs/areas.md).
import type { CommandEntry } from '../commands/commandTable';
import { keyCommands } from './keyCommands';
import { profileCommands } from './profileCommands';
import type { ProfileAreaServices } from './profileServices';
import { secretCommands } from './secretCommands';

export { SECRET_LABELS } from './profileRecord';
export { knownProfileLabels } from './sandboxLabels';
export type { ProfileStore } from './profileStore';
export type { ProfileAreaServices } from './profileServices';

/** The profile, secret and key commands, for the composition root's command table. */
export const PROFILE_COMMANDS: readonly CommandEntry<ProfileAreaServices>[] = [...profileCommands, ...secretCommands, ...keyCommands];
