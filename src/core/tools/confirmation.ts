// The confirmation text of tools that spend money or destroy state: the profile (prod stands out),
// the task, and the consequence in money or loss. Pure; the write tools fill it from fresh reads.

import type { ToolConfirmation, ToolEffect, ToolProfile } from './api';
import { field } from './format';

export function isProduction(profile: ToolProfile): boolean {
  return profile.environment === 'prod';
}

/** "profile "Main" (dev)" or "⚠ PRODUCTION profile "Main"". */
export function profilePhrase(profile: ToolProfile): string {
  return isProduction(profile) ? `⚠ PRODUCTION profile "${field(profile.label, 80)}"` : `profile "${field(profile.label, 80)}" (${field(profile.environment, 20)})`;
}

/**
 * Title and message: the title names the action and, for prod, says so first; the message leads with
 * the profile, then the task, then each consequence on its own line.
 */
export function confirmation(effect: ToolEffect, profile: ToolProfile, action: string, consequences: readonly string[]): ToolConfirmation {
  const prod = isProduction(profile);
  const title = `${prod ? 'PRODUCTION: ' : ''}${action}`;
  const lines = [
    `**On ${profilePhrase(profile)}**`,
    '',
    ...consequences.map((line) => `- ${line}`),
  ];
  if (effect === 'destructive') lines.push('', '**This cannot be undone.**');
  if (prod) lines.push('', 'This changes a production account.');
  return { title, message: lines.join('\n') };
}
