// What a write tool sends that its confirmation must show whole: the lines naming each value the model
// or a workspace file decided (command, image, env, mounts). confirmTool caps a message at 4,000
// characters, so a longer list would be cut where the user cannot see it: such a call is refused
// instead, in the confirmation and again in the run (docs/security.md "Workspace content is untrusted").

import { ConfigError } from '../errors';

/** Longest list of decided values a confirmation shows whole, beside its headline and cost lines. */
export const SHOWN_WHOLE_LIMIT_CHARS = 2500;

/** `lines`, or a refusal naming `what` when they would not be shown whole. */
export function shownWhole(lines: string[], what: string, hint: string): string[] {
  if (lines.join('\n').length > SHOWN_WHOLE_LIMIT_CHARS) throw new ConfigError(`${what} more than a confirmation can show whole, so it is not sent.`, hint);
  return lines;
}
