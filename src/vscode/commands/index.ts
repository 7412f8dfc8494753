// The commands of the profile, secret, key and request areas, as one list of command-table entries.
// The compute and chat areas contribute theirs from compute/commands.ts and chat/commands.ts.

import type { Services } from '../extensionServices';
import type { CommandEntry } from './commandTable';
import { keyCommands } from './keyCommands';
import { profileCommands } from './profileCommands';
import { requestCommands } from './requestCommands';
import { secretCommands } from './secretCommands';

export const CORE_COMMANDS: readonly CommandEntry<Services>[] = [...profileCommands, ...secretCommands, ...keyCommands, ...requestCommands];
