// Generate a key pair (private half straight into SecretStorage, public PEM shown and copied for upload)
// and show the fingerprints that let a user compare what is stored with what the console lists.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { ProfileAreaServices as Services } from './profileServices';
import { computeCore } from '../lazyCore';
import type { Profile } from '../services';
import { keyAgeDays } from './keyRotation';
import { type CommandEntry } from '../commands/commandTable';
import { targetProfile } from './profileCommands';
import { errorText } from '../errors/errorText';
import { counted } from '../ui/counts';

export interface GeneratedKeyReport {
  profileId: string;
  fingerprint: string;
  publicKeyPem: string;
}

export interface FingerprintReport {
  profileId: string;
  clientKey?: { fingerprint: string; modulusBits: number; ageDays?: number };
  platformKey?: { fingerprint: string; modulusBits: number; ageDays?: number };
  /** Keys that are stored but cannot be parsed (the message says why). */
  problems: string[];
}

export const keyCommands: readonly CommandEntry<Services>[] = [
  {
    id: Commands.keysGenerate,
    doing: vscode.l10n.t('Generate a key pair'),
    create: (services) => async (argument?: unknown): Promise<GeneratedKeyReport | undefined> => {
      const profile = await targetProfile(services, argument);
      if (!profile || !(await confirmGenerate(services, profile))) return undefined;
      const pair = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Generating a 2048-bit RSA key pair…') },
        () => computeCore().generateKeyPair(),
      );
      await services.profiles.setSecret(profile.id, 'privateKey', pair.privateKeyPem);
      services.logger.info(`Generated a key pair for ${profile.label}; public key fingerprint ${pair.fingerprint}`);
      // Read-only, so closing it never asks to save an untitled file (the PEM is on the clipboard too).
      await services.openReadOnlyDocument({
        ...publicKeyDocument(profile),
        language: 'plaintext',
        content: () => Promise.resolve(pair.publicKeyPem),
      });
      await vscode.env.clipboard.writeText(pair.publicKeyPem);
      void offerConsole(profile, pair.fingerprint);
      return { profileId: profile.id, fingerprint: pair.fingerprint, publicKeyPem: pair.publicKeyPem };
    },
  },

  {
    id: Commands.keysShowFingerprints,
    doing: vscode.l10n.t('Show key fingerprints'),
    create: (services) => async (argument?: unknown): Promise<FingerprintReport | undefined> => {
      const profile = await targetProfile(services, argument);
      if (!profile) return undefined;
      const report = await fingerprints(services, profile);
      const lines = [
        report.clientKey
          ? vscode.l10n.t('Your public key (from the stored private key): {0}', report.clientKey.fingerprint) + `\n${describeKey(report.clientKey)}`
          : vscode.l10n.t('No private key stored.'),
        report.platformKey
          ? vscode.l10n.t('Platform public key: {0}', report.platformKey.fingerprint) + `\n${describeKey(report.platformKey)}`
          : vscode.l10n.t('No platform public key stored.'),
        ...report.problems,
        vscode.l10n.t('SHA-256 of the SPKI DER; compare with: {0}', 'openssl pkey -pubin -in public.pem -outform DER | openssl dgst -sha256 -c'),
      ];
      void vscode.window.showInformationMessage(vscode.l10n.t('Key fingerprints of "{0}"', profile.label), { modal: true, detail: lines.join('\n\n') });
      return report;
    },
  },
];

/** Where the public half of a profile's newest generated pair is shown (one document per profile). */
export function publicKeyDocument(profile: Pick<Profile, 'id' | 'label'>): { key: string; title: string } {
  return { key: `public-key/${profile.id}`, title: vscode.l10n.t('{0} public key.pem', profile.label) };
}

async function confirmGenerate(services: Services, profile: Profile): Promise<boolean> {
  const warnings: string[] = [];
  if (profile.mode === 'token') warnings.push(vscode.l10n.t('"{0}" uses token mode; only RSA-mode keys use a key pair.', profile.label));
  if (await services.profiles.getSecret(profile.id, 'privateKey')) {
    warnings.push(
      vscode.l10n.t(
        'It replaces the stored private key. Requests fail with a signature error until the new public key is registered in the console (which creates a new key with a new token and platform public key).',
      ),
    );
  }
  if (warnings.length === 0) return true;
  const generate = vscode.l10n.t('Generate New Pair');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Generate a new key pair for "{0}"?', profile.label),
    { modal: true, detail: warnings.join('\n\n') },
    generate,
  );
  return answer === generate;
}

async function offerConsole(profile: Profile, fingerprint: string): Promise<void> {
  const open = vscode.l10n.t('Open Console Key Page');
  const picked = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'New key pair for "{0}": the private key is in SecretStorage; the public key is open in an editor and copied to the clipboard (fingerprint {1}…). Upload it in the console, then store the token and platform public key it returns.',
      profile.label,
      fingerprint.slice(0, 11),
    ),
    open,
  );
  if (picked === open) await vscode.env.openExternal(vscode.Uri.parse(`${profile.consoleUrl.replace(/\/+$/, '')}/settings/key`));
}

async function fingerprints(services: Services, profile: Profile): Promise<FingerprintReport> {
  const core = computeCore();
  const report: FingerprintReport = { profileId: profile.id, problems: [] };
  const age = (kind: 'privateKey' | 'platformPublicKey'): { ageDays?: number } => {
    const days = keyAgeDays(services.profiles, profile.id, kind);
    return days === undefined ? {} : { ageDays: days };
  };
  const privateKey = await services.profiles.getSecret(profile.id, 'privateKey');
  if (privateKey) {
    try {
      const parsed = core.parsePrivateKey(privateKey);
      report.clientKey = { fingerprint: parsed.fingerprint, modulusBits: parsed.modulusBits, ...age('privateKey') };
    } catch (error) {
      report.problems.push(vscode.l10n.t('The stored private key cannot be used: {0}', errorText(error)));
    }
  }
  const platformKey = await services.profiles.getSecret(profile.id, 'platformPublicKey');
  if (platformKey) {
    try {
      const parsed = core.parsePlatformPublicKey(platformKey);
      report.platformKey = { fingerprint: parsed.fingerprint, modulusBits: parsed.modulusBits, ...age('platformPublicKey') };
    } catch (error) {
      report.problems.push(vscode.l10n.t('The stored platform public key cannot be used: {0}', errorText(error)));
    }
  }
  return report;
}

function describeKey(key: { modulusBits: number; ageDays?: number }): string {
  if (key.ageDays === undefined) return vscode.l10n.t('{0}-bit RSA', key.modulusBits);
  if (key.ageDays === 1) return vscode.l10n.t('{0}-bit RSA, stored 1 day ago', key.modulusBits);
  return vscode.l10n.t('{0}-bit RSA, stored {1} ago', key.modulusBits, counted(key.ageDays, 'day'));
}
