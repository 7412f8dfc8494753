// The key-age reminder: the spec recommends rotating key pairs every 90 days. Checked when a profile
// becomes active, shown at most once per session per profile, never modal.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { Config } from '../config';
import type { Profile, SecretKind } from '../services';
import { setupName } from '../errors/errorWords';
import type { ProfileStore } from './profileStore';
import { counted } from '../ui/counts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days since the secret was stored, or undefined if the time is unknown. */
export function keyAgeDays(store: ProfileStore, profileId: string, kind: SecretKind, now = Date.now()): number | undefined {
  const setAt = store.secretSetAt(profileId, kind);
  return setAt === undefined ? undefined : Math.floor((now - setAt) / DAY_MS);
}

/** The secrets whose age says "rotate": the signing key in RSA mode, the token in both modes. */
export function staleSecrets(store: ProfileStore, profile: Profile, maxDays: number, now = Date.now()): { kind: SecretKind; days: number }[] {
  if (maxDays <= 0 || profile.environment === 'sandbox') return [];
  const kinds: SecretKind[] = profile.mode === 'rsa' ? ['privateKey', 'apiToken'] : ['apiToken'];
  const stale: { kind: SecretKind; days: number }[] = [];
  for (const kind of kinds) {
    const days = keyAgeDays(store, profile.id, kind, now);
    if (days !== undefined && days >= maxDays) stale.push({ kind, days });
  }
  return stale;
}

export class KeyRotationReminder {
  private readonly remindedThisSession = new Set<string>();

  constructor(
    private readonly store: ProfileStore,
    private readonly config: Config,
  ) {}

  /** Shows the reminder for `profile` unless it was shown already in this session. */
  async check(profile: Profile | undefined): Promise<void> {
    if (!profile || this.remindedThisSession.has(profile.id)) return;
    const stale = staleSecrets(this.store, profile, this.config.keyRotationReminderDays);
    if (stale.length === 0) return;
    this.remindedThisSession.add(profile.id);
    const what = stale.map(({ kind, days }) => `${setupName(kind)} (${counted(days, 'day')})`).join(vscode.l10n.t(' and '));
    const generate = vscode.l10n.t('Generate New Key Pair');
    const openConsole = vscode.l10n.t('Open Console');
    const actions = profile.mode === 'rsa' ? [generate, openConsole] : [openConsole];
    const picked = await vscode.window.showWarningMessage(
      stale.length > 1
        ? vscode.l10n.t('"{0}": the {1} are older than {2}. The platform recommends rotating keys every 90 days and revoking the old ones in the console.', profile.label, what, counted(this.config.keyRotationReminderDays, 'day'))
        : vscode.l10n.t('"{0}": the {1} is older than {2}. The platform recommends rotating keys every 90 days and revoking the old ones in the console.', profile.label, what, counted(this.config.keyRotationReminderDays, 'day')),
      ...actions,
    );
    if (picked === generate) await vscode.commands.executeCommand(Commands.keysGenerate, { profileId: profile.id });
    else if (picked === openConsole) {
      await vscode.env.openExternal(vscode.Uri.parse(`${profile.consoleUrl.replace(/\/+$/, '')}/settings/key`));
    }
  }
}
