// Storing and clearing the secrets of a profile. Values are typed into masked input boxes (or read once
// from a file the user picks), validated with the core's parsers, and written to SecretStorage only.

import * as vscode from 'vscode';
import { ConfigError } from '../../core/errors';
import { Commands } from '../commandIds';
import type { ProfileAreaServices as Services } from './profileServices';
import { computeCore } from '../lazyCore';
import { checkPlatformPublicKey, checkPrivateKey, checkToken, type CheckedKey } from './keyValidation';
import { configText, setupName } from '../errors/errorWords';
import type { Profile, SecretKind } from '../services';
import { type CommandEntry } from '../commands/commandTable';
import { targetProfile } from './profileCommands';

/** Larger files are not keys; refusing them early avoids reading something unrelated into memory. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

export const secretCommands: readonly CommandEntry<Services>[] = [
  {
    id: Commands.secretsSetToken,
    doing: vscode.l10n.t('Store the API token'),
    create: (services) => (argument?: unknown) => setSecretInteractively(services, argument, 'apiToken'),
  },
  {
    id: Commands.secretsSetPrivateKey,
    doing: vscode.l10n.t('Store the private key'),
    create: (services) => (argument?: unknown) => setSecretInteractively(services, argument, 'privateKey'),
  },
  {
    id: Commands.secretsSetPlatformPublicKey,
    doing: vscode.l10n.t('Store the platform public key'),
    create: (services) => (argument?: unknown) => setSecretInteractively(services, argument, 'platformPublicKey'),
  },
  {
    id: Commands.secretsSetModelApiKey,
    doing: vscode.l10n.t('Store the model API key'),
    create: (services) => (argument?: unknown) => setSecretInteractively(services, argument, 'modelApiKey'),
  },

  {
    id: Commands.secretsImportPrivateKey,
    doing: vscode.l10n.t('Import the private key'),
    create: (services) => async (argument?: unknown) => {
      const profile = await targetProfile(services, argument);
      if (!profile) return false;
      const [file] =
        (await vscode.window.showOpenDialog({
          title: vscode.l10n.t('Import the private key of "{0}"', profile.label),
          openLabel: vscode.l10n.t('Import into SecretStorage'),
          canSelectMany: false,
          filters: { [vscode.l10n.t('PEM or Base64 key')]: ['pem', 'key', 'txt', 'der'], [vscode.l10n.t('All files')]: ['*'] },
        })) ?? [];
      if (!file) return false;
      const stat = await vscode.workspace.fs.stat(file);
      if (stat.size > MAX_KEY_FILE_BYTES) {
        throw new ConfigError(vscode.l10n.t('{0} is {1} bytes: too large to be a private key.', file.path, stat.size), vscode.l10n.t('Pick the PEM file of the key.'));
      }
      // Read as bytes: a binary DER key file becomes Base64 the parser reads; anything else is UTF-8 text.
      const text = computeCore().keyFileText(await vscode.workspace.fs.readFile(file));
      const checked = checkPrivateKey(text, await services.profiles.getSecret(profile.id, 'platformPublicKey'));
      if (!(await confirmWarnings(profile, 'privateKey', checked.warnings))) return false;
      await services.profiles.setSecret(profile.id, 'privateKey', checked.pem);
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Private key imported into SecretStorage for "{0}" ({1}-bit, fingerprint {2}). The file was read once and left untouched; the extension keeps no copy of it.',
          profile.label,
          checked.modulusBits,
          shortFingerprint(checked.fingerprint),
        ),
      );
      return true;
    },
  },

  {
    id: Commands.secretsClear,
    doing: vscode.l10n.t('Clear secrets'),
    create: (services) => async (argument?: unknown) => {
      const profile = await targetProfile(services, argument);
      if (!profile) return false;
      const stored = await services.profiles.storedSecretKinds(profile.id);
      if (stored.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Profile "{0}" has no stored secrets.', profile.label));
        return false;
      }
      const picked = await vscode.window.showQuickPick(
        stored.map((secret) => ({ label: setupName(secret), secret, picked: true })),
        { canPickMany: true, placeHolder: vscode.l10n.t('Secrets of "{0}" to remove from SecretStorage', profile.label) },
      );
      if (!picked || picked.length === 0) return false;
      const confirm = vscode.l10n.t('Remove');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Remove the {0} of "{1}"?', picked.map((item) => item.label).join(', '), profile.label),
        { modal: true, detail: vscode.l10n.t('A removed private key cannot be recovered: keep a backup or generate a new pair.') },
        confirm,
      );
      if (answer !== confirm) return false;
      await services.profiles.batch(async () => {
        for (const item of picked) await services.profiles.deleteSecret(profile.id, item.secret);
      });
      return true;
    },
  },
];

const PROMPTS: Record<SecretKind, string> = {
  apiToken: vscode.l10n.t('API token from the console (shown only once when the key was created)'),
  privateKey: vscode.l10n.t('Your RSA private key: PKCS#8 or PKCS#1 PEM, or its bare Base64. It stays in SecretStorage and is never shown again.'),
  platformPublicKey: vscode.l10n.t('The platform public key the console showed when the RSA-mode key was created (PEM or bare Base64)'),
  modelApiKey: vscode.l10n.t('Model API key (for chat); an Open API token does not work here'),
};

async function setSecretInteractively(services: Services, argument: unknown, kind: SecretKind): Promise<boolean> {
  const profile = await targetProfile(services, argument);
  if (!profile) return false;
  const other = kind === 'privateKey' ? 'platformPublicKey' : kind === 'platformPublicKey' ? 'privateKey' : undefined;
  const otherValue = other ? await services.profiles.getSecret(profile.id, other) : undefined;
  const check = (text: string): CheckedKey | undefined => {
    if (kind === 'privateKey') return checkPrivateKey(text, otherValue);
    if (kind === 'platformPublicKey') return checkPlatformPublicKey(text, otherValue);
    return undefined;
  };
  const replacing = (await services.profiles.getSecret(profile.id, kind)) !== undefined;
  const value = await vscode.window.showInputBox({
    title: replacing ? vscode.l10n.t('Replace the {0} of "{1}"', setupName(kind), profile.label) : vscode.l10n.t('Set the {0} of "{1}"', setupName(kind), profile.label),
    prompt: PROMPTS[kind],
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => {
      // The core words the token's problem in English around the English name (core/secretValues.ts).
      if (kind === 'apiToken' || kind === 'modelApiKey') return checkToken(text, kind);
      if (text.trim() === '') return vscode.l10n.t('Paste the {0}.', setupName(kind));
      try {
        check(text);
        return undefined;
      } catch (error) {
        if (error instanceof ConfigError) return configText(error);
        throw error;
      }
    },
  });
  if (value === undefined) return false;
  const checked = check(value);
  const warnings = [...(checked?.warnings ?? [])];
  if (profile.mode === 'token' && (kind === 'privateKey' || kind === 'platformPublicKey')) {
    warnings.push(vscode.l10n.t('"{0}" uses token mode, which neither signs nor encrypts: this key is only used by RSA-mode profiles.', profile.label));
  }
  if (!(await confirmWarnings(profile, kind, warnings))) return false;
  await services.profiles.setSecret(profile.id, kind, checked?.pem ?? value.trim());
  const fingerprint = checked ? vscode.l10n.t(' (fingerprint {0})', shortFingerprint(checked.fingerprint)) : '';
  void vscode.window.showInformationMessage(vscode.l10n.t('The {0} of "{1}" is stored in SecretStorage{2}.', setupName(kind), profile.label, fingerprint));
  return true;
}

async function confirmWarnings(profile: Profile, kind: SecretKind, warnings: readonly string[]): Promise<boolean> {
  if (warnings.length === 0) return true;
  const store = vscode.l10n.t('Store Anyway');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Check the {0} of "{1}" before storing it.', setupName(kind), profile.label),
    { modal: true, detail: warnings.join('\n\n') },
    store,
  );
  return answer === store;
}

/** The first and last bytes of a colon-separated fingerprint, enough to compare by eye. */
export function shortFingerprint(fingerprint: string): string {
  const pairs = fingerprint.split(':');
  return pairs.length <= 8 ? fingerprint : `${pairs.slice(0, 4).join(':')}…${pairs.slice(-4).join(':')}`;
}
