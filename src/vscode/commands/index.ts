// The commands of the profile, secret, key and request areas, as one list of command-table entries.
// The compute and chat areas contribute theirs from views/commands.ts and chat/commands.ts.

import type { Services } from '../extensionServices';
import type { CommandEntry } from './commandTable';
import { keyCommands } from '../profiles/keyCommands';
import { profileCommands } from '../profiles/profileCommands';
import { requestCommands } from '../requests/requestCommands';
import { secretCommands } from '../profiles/secretCommands';

export const CORE_COMMANDS: readonly CommandEntry<Services>[] = [...profileCommands, ...secretCommands, ...keyCommands, ...requestCommands];
