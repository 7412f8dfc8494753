// Checks a key before it is stored, with the core's parsers (their ConfigErrors name the exact defect),
// plus the one mistake only the profile can reveal: the platform public key and the client's own key
// pair mixed up, found by comparing SHA-256 fingerprints.

import { ConfigError } from '../../core/errors';
import { computeCore } from '../lazyCore';

export interface CheckedKey {
  fingerprint: string;
  modulusBits: number;
  /** Usable but worth a confirmation (e.g. a key under 2048 bits, or the other slot looks wrong). */
  warnings: string[];
}

/** Validates a client private key; `storedPlatformKey` is the profile's current platform public key, if any. */
export function checkPrivateKey(text: string, storedPlatformKey: string | undefined): CheckedKey {
  const core = computeCore();
  const parsed = core.parsePrivateKey(text);
  const warnings = parsed.warning ? [parsed.warning] : [];
  const platform = storedPlatformKey ? tryFingerprint(() => core.parsePlatformPublicKey(storedPlatformKey).fingerprint) : undefined;
  if (platform !== undefined && platform === parsed.fingerprint) {
    warnings.push(
      'The platform public key stored for this profile is the public half of this private key: the platform key slot holds ' +
        'your own public key. Replace it with the platform public key the console showed when the key was created.',
    );
  }
  return { fingerprint: parsed.fingerprint, modulusBits: parsed.modulusBits, warnings };
}

/** Validates a platform public key; refuses the client's own public key (`storedPrivateKey`'s public half). */
export function checkPlatformPublicKey(text: string, storedPrivateKey: string | undefined): CheckedKey {
  const core = computeCore();
  const parsed = core.parsePlatformPublicKey(text);
  const own = storedPrivateKey ? tryFingerprint(() => core.parsePrivateKey(storedPrivateKey).fingerprint) : undefined;
  if (own !== undefined && own === parsed.fingerprint) {
    throw new ConfigError(
      'This is the public half of your own private key, not the platform public key.',
      'Bodies must be encrypted with the key the platform gave you when the RSA-mode key was created (spec 5.6): ' +
        'paste that one here. Your own public key is the one you upload in the console.',
    );
  }
  return { fingerprint: parsed.fingerprint, modulusBits: parsed.modulusBits, warnings: parsed.warning ? [parsed.warning] : [] };
}

/** A token is sent as a header and signed verbatim: refuse what would corrupt either. */
export function checkToken(text: string): string | undefined {
  const token = text.trim();
  if (token === '') return 'The token is empty.';
  if (/\s/.test(token)) return 'A token has no spaces or line breaks: copy it again from the console.';
  if (/[^\x21-\x7e]/.test(token)) return 'A token is printable ASCII only: copy it again from the console.';
  if (token.includes('-----BEGIN')) return 'This is a PEM key, not an API token.';
  return undefined;
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
