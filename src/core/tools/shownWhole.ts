// What a write tool sends that its confirmation must show whole: the lines naming each value the model
// or a workspace file decided (command, image, env, mounts). confirmTool caps a message at 4,000
// characters, so a longer list would be cut where the user cannot see it: such a call is refused
// instead, in the confirmation and again in the run (docs/security.md "Workspace content is untrusted").

import { ConfigError } from '../errors';
import { shownValue } from '../shownValue';

/** Longest list of decided values a confirmation shows whole, beside its headline and cost lines. */
export const SHOWN_WHOLE_LIMIT_CHARS = 2500;

/** `lines`, or a refusal naming `what` when they would not be shown whole. */
export function shownWhole(lines: string[], what: string, hint: string): string[] {
  if (lines.join('\n').length > SHOWN_WHOLE_LIMIT_CHARS) throw new ConfigError(`${what} more than a confirmation can show whole, so it is not sent.`, hint);
  return lines;
}

/** What a job or task the model asked for sends. */
export interface SentValues {
  image: string;
  /** Undefined: the image's own entry point. */
  command?: string;
  env: readonly { name: string; value: string }[];
  volume?: { storageId: number; targetDir: string };
}

/** Image, command, each env variable and the mount, every value whole and escaped; refused when too long to show whole. */
export function sentValueLines(values: SentValues, what: string, hint: string): string[] {
  const whole = (text: string) => shownValue(text, Number.MAX_SAFE_INTEGER);
  return shownWhole(
    [
      `Image: ${whole(values.image)}`,
      values.command === undefined ? "Command: the image's own entry point" : `Command: ${whole(values.command)}`,
      ...values.env.map((entry) => `Env ${whole(entry.name)} = ${JSON.stringify(whole(entry.value))}`),
      ...(values.volume ? [`NAS volume ${values.volume.storageId} mounted at ${whole(values.volume.targetDir)}; the command runs there`] : []),
    ],
    what,
    hint,
  );
}
