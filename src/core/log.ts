// The logging port of the core. The VS Code layer implements it with a LogOutputChannel;
// tests implement it with an array. Every message passes through a Redactor first.

import { plainTerminalText } from './terminalText';
import { maskCredentials } from './credentialText';
import { encodedForms, pemBody, redactPrivateKeyBlocks, replaceCanonical, secretNeedle, type SecretPattern } from './redaction';

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Shortest secret worth masking; shorter values would mask ordinary words. */
const MIN_SECRET_LENGTH = 6;

/** Masks a secret for display: first 4 + last 4 chars, the rest as '…' (short values fully masked). */
export function maskSecret(value: string): string {
  if (value.length <= 12) return '•'.repeat(Math.min(value.length, 8));
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/** The pattern that finds `secret` in any of its encodings and masks it 4+4. */
function maskPattern(secret: string, replacement = maskSecret(secret)): SecretPattern {
  return { canonical: secretNeedle(secret), replacement };
}

/**
 * Replaces every occurrence of each secret in `text` with its 4+4 mask, also when the text carries it
 * URL-encoded, JSON-escaped, in another letter case or split across lines (see redaction.ts). Overlapping
 * matches are masked as one. For text that may echo a secret back: server messages, displays.
 */
export function maskSecretsIn(text: string, secrets: readonly (string | undefined)[]): string {
  const patterns: SecretPattern[] = [];
  for (const secret of secrets) {
    if (secret === undefined || secret.length === 0) continue;
    patterns.push(maskPattern(secret));
    if (secret.length >= MIN_SECRET_LENGTH && pemBody(secret) === undefined) {
      for (const form of encodedForms(secret)) patterns.push(maskPattern(form, ENCODED_REPLACEMENT));
    }
  }
  return replaceCanonical(text, patterns);
}

/** What replaces a secret found in an encoded form (its 4+4 would show encoded bytes of it). */
const ENCODED_REPLACEMENT = '[redacted]';

/**
 * Replaces every known secret (and PEM blocks, Bearer values, credentials by their key or in a URL) in a
 * text before it is logged or shown, in every encoding maskSecretsIn recognises. Holds the secrets by value; call `setSecrets` whenever the
 * active credentials change. Linear in the text.
 */
export class Redactor {
  private patterns: SecretPattern[] = [];

  setSecrets(values: Iterable<string | undefined>): void {
    const patterns = new Map<string, SecretPattern>();
    const add = (pattern: SecretPattern): void => {
      if (pattern.canonical.length >= MIN_SECRET_LENGTH && !patterns.has(pattern.canonical)) patterns.set(pattern.canonical, pattern);
    };
    for (const value of values) {
      if (!value) continue;
      const trimmed = value.trim();
      add(maskPattern(trimmed));
      const body = pemBody(trimmed);
      if (body === undefined) {
        // A token or key encoded whole: Base64, Base64url, hex.
        if (trimmed.length >= MIN_SECRET_LENGTH) for (const form of encodedForms(trimmed)) add(maskPattern(form, ENCODED_REPLACEMENT));
        continue;
      }
      // A PEM body travels re-wrapped at any width (or on one line); line breaks vanish in the canonical form.
      add(maskPattern(body, '[key redacted]'));
      // A partial echo: each of its Base64 lines on its own.
      for (const line of trimmed.split('\n')) {
        const bare = line.trim();
        if (bare.length >= 40 && !bare.startsWith('-----')) add(maskPattern(bare));
      }
    }
    this.patterns = [...patterns.values()];
  }

  redact(text: string): string {
    let out = redactPrivateKeyBlocks(text, '[private key redacted]');
    out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{6,}/g, '$1[redacted]');
    // Known values first (their 4+4 masks), then values found by their key or place (credentialText.ts).
    return maskCredentials(replaceCanonical(out, this.patterns));
  }
}

/**
 * Wraps a logger so every message is made plain (a log is shown as a document or on a terminal's stderr:
 * src/core/terminalText.ts) and then redacted.
 */
export function redactingLogger(inner: Logger, redactor: Redactor): Logger {
  const shown = (message: string): string => redactor.redact(plainTerminalText(message));
  return {
    trace: (m) => inner.trace(shown(m)),
    debug: (m) => inner.debug(shown(m)),
    info: (m) => inner.info(shown(m)),
    warn: (m) => inner.warn(shown(m)),
    error: (m) => inner.error(shown(m)),
  };
}
