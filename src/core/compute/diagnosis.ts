// Names the likely cause of a failed call from what we can check locally (docs/platform.md): the request we
// just sent and the response's Date header. The server's message text is never matched: its wording
// is undocumented and may change, while these checks are facts about our own request.

import type { KeyObject } from 'node:crypto';
import type { AuthMode, ClockSkew, LikelyCause } from './api';
import { CLOCK_WINDOW_MS, isThirteenDigitTimestamp } from './clock';
import { isAuthFailureCode } from './errors';
import { verify } from './signing';

export const EXPECTED_VERSION = '1.0.0';

/** Measurement error of a Date-header skew (whole seconds plus half the round trip), rounded up. */
const SKEW_MARGIN_MS = 30_000;

/** What one attempt sent, as needed to explain its failure. */
export interface AttemptEvidence {
  mode: AuthMode;
  version: string;
  timestamp: string;
  encrypted: boolean;
  /** RSA mode: the exact string that was signed, the signature sent, and our own public key. */
  stringToSign?: string;
  signature?: string;
  ownPublicKey?: KeyObject;
  /** Skew measured from the Date header of the failed response itself. */
  skew?: ClockSkew;
}

function describeOffset(offsetMs: number): string {
  const minutes = Math.abs(offsetMs) / 60_000;
  const amount = minutes >= 1 ? `${minutes.toFixed(1)} min` : `${(Math.abs(offsetMs) / 1000).toFixed(1)} s`;
  return offsetMs > 0 ? `${amount} behind` : `${amount} ahead of`;
}

export function diagnose(code: string, evidence: AttemptEvidence): LikelyCause {
  if (evidence.version !== EXPECTED_VERSION) {
    return {
      kind: 'version-type',
      version: evidence.version,
      detail: `The header version was "${evidence.version}"; the platform expects the string "${EXPECTED_VERSION}".`,
    };
  }
  if (!isThirteenDigitTimestamp(evidence.timestamp)) {
    return {
      kind: 'timestamp-format',
      timestamp: evidence.timestamp,
      detail: `The timestamp "${evidence.timestamp}" is ${evidence.timestamp.length} digits; it must be Unix time in milliseconds (13 digits)${
        evidence.timestamp.length === 10 ? ' — 10 digits means seconds' : ''
      }.`,
    };
  }
  const skew = evidence.skew;
  if (skew && Math.abs(skew.offsetMs) >= CLOCK_WINDOW_MS - SKEW_MARGIN_MS) {
    return {
      kind: 'clock-skew',
      offsetMs: skew.offsetMs,
      detail:
        `This computer's clock is ${describeOffset(skew.offsetMs)} the server's (from the Date header of this response); ` +
        'the platform accepts timestamps within 5 minutes. The client now corrects for the offset, so a retry should pass; ' +
        'fix the system clock (enable network time) for a lasting cure.',
    };
  }
  if (evidence.mode === 'rsa' && evidence.stringToSign !== undefined && evidence.signature !== undefined && evidence.ownPublicKey) {
    if (!verify(evidence.stringToSign, evidence.signature, evidence.ownPublicKey)) {
      return {
        kind: 'signature-mismatch-local',
        detail: 'The signature we sent does not verify with the public half of the configured private key: the key is damaged or the pair is mismatched. Re-import or regenerate the private key.',
      };
    }
  }
  if (!isAuthFailureCode(code)) {
    return {
      kind: 'unknown',
      detail: `The platform refused the request with code ${code}; the local checks (version, timestamp, clock, signature) all pass, so its message is the best guide.`,
    };
  }
  if (evidence.mode === 'rsa') {
    // The platform answers a refused token and an unregistered public key with the same codes, so both
    // are named: the token first (the commoner mistake), then the key comparison.
    return {
      kind: 'token-or-key-unregistered',
      encrypted: evidence.encrypted === true,
      detail:
        'The signature verifies locally with the configured private key, and the timestamp, clock and version are fine, ' +
        "so the platform refused the credentials themselves; its codes do not tell which of two causes it is. " +
        'Most often the API token is wrong, revoked or belongs to another account: set the API token again from the console. ' +
        'Otherwise the platform holds a different public key for this token (another key pair was uploaded)' +
        (evidence.encrypted ? ', or the platform public key used for encryption is not the one the console showed for this token' : '') +
        ': compare the key fingerprint with the one registered in the console.',
    };
  }
  return {
    kind: 'token',
    detail: 'Token mode: the timestamp, clock and version are fine, so the token itself was refused: it may be revoked, mistyped, or belong to an RSA-mode key (which needs a signature).',
  };
}
