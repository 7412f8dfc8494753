// Checks a key before it is stored, with the core's parsers (their ConfigErrors name the exact defect),
// plus the one mistake only the profile can reveal: the platform public key and the client's own key
// pair mixed up, found by comparing SHA-256 fingerprints.

import * as vscode from 'vscode';
import { ConfigError, type CoreText } from '../../core/errors';
import { headerSecretProblemText, secretWord, type HeaderSecret } from '../../core/secretValues';
import { coreWords } from '../errors/errorWords';
import { computeCore } from '../lazyCore';

export interface CheckedKey {
  /**
   * The key re-encoded as standard PEM (PKCS#8 private, SPKI public). Stored instead of the pasted text:
   * an input box joins a pasted PEM into one line, and any accepted encoding becomes one canonical form.
   */
  pem: string;
  fingerprint: string;
  modulusBits: number;
  /** Usable but worth a confirmation (e.g. a key under 2048 bits, or the other slot looks wrong). */
  warnings: string[];
}

/** Validates a client private key; `storedPlatformKey` is the profile's current platform public key, if any. */
export function checkPrivateKey(text: string, storedPlatformKey: string | undefined): CheckedKey {
  const core = computeCore();
  const parsed = core.parsePrivateKey(text);
  const warnings = warningsOf(parsed);
  const platform = storedPlatformKey ? tryFingerprint(() => core.parsePlatformPublicKey(storedPlatformKey).fingerprint) : undefined;
  if (platform !== undefined && platform === parsed.fingerprint) {
    warnings.push(
      vscode.l10n.t('The platform public key stored for this profile is the public half of this private key: the platform key slot holds your own public key. Replace it with the platform public key the console showed when the key was created.'),
    );
  }
  const pem = parsed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { pem, fingerprint: parsed.fingerprint, modulusBits: parsed.modulusBits, warnings };
}

/** Validates a platform public key; refuses the client's own public key (`storedPrivateKey`'s public half). */
export function checkPlatformPublicKey(text: string, storedPrivateKey: string | undefined): CheckedKey {
  const core = computeCore();
  const parsed = core.parsePlatformPublicKey(text);
  const own = storedPrivateKey ? tryFingerprint(() => core.parsePrivateKey(storedPrivateKey).fingerprint) : undefined;
  if (own !== undefined && own === parsed.fingerprint) {
    throw new ConfigError(
      vscode.l10n.t('This is the public half of your own private key, not the platform public key.'),
      vscode.l10n.t('Bodies must be encrypted with the key the platform gave you when the RSA-mode key was created: paste that one here. Your own public key is the one you upload in the console.'),
    );
  }
  return {
    pem: parsed.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: parsed.fingerprint,
    modulusBits: parsed.modulusBits,
    warnings: warningsOf(parsed),
  };
}

/**
 * A token or API key travels as a header (and the token is signed verbatim): refuse what would corrupt
 * either. Returns the problem, or undefined when the value is usable.
 */
export function checkToken(text: string, secret: HeaderSecret = 'apiToken'): string | undefined {
  const problem = headerSecretProblemText(text, secretWord(secret));
  return problem ? coreWords(problem) : undefined;
}

/** A parsed key's warning in the display language. */
function warningsOf(parsed: { warning?: string; warningWords?: CoreText }): string[] {
  if (parsed.warningWords) return [coreWords(parsed.warningWords)];
  return parsed.warning ? [parsed.warning] : [];
}

/**
 * The stored key of the other slot may itself be damaged; that is reported when it is used, so the
 * comparison just has nothing to compare against.
 */
function tryFingerprint(read: () => string): string | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}
