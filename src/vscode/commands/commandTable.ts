// The shape of the command table: each entry is a factory that receives the services once, at
// registration, and returns the handler (rust-analyzer's commands.ts pattern).

import type { Services } from '../extensionServices';

export type CommandHandler = (...args: unknown[]) => unknown;

export interface CommandEntry {
  /** What the command does, as a phrase for error messages: "Connect to the sandbox". */
  doing: string;
  create: (services: Services) => CommandHandler;
}

/** Reads a profile id given as a command argument: `'id'` or `{ profileId: 'id' }` (tree items, links, tests). */
export function profileIdArgument(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'object' && value !== null) {
    const id = (value as { profileId?: unknown }).profileId;
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}
