// The logging port of the core. The VS Code layer implements it with a LogOutputChannel;
// tests implement it with an array. Every message passes through a Redactor first.

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

/**
 * Replaces every occurrence of each secret in `text` with its 4+4 mask, longest first so a secret that
 * contains another is masked whole. For text that may echo a secret back: server messages, displays.
 */
export function maskSecretsIn(text: string, secrets: readonly (string | undefined)[]): string {
  const present = secrets.filter((s): s is string => s !== undefined && s.length > 0 && text.includes(s));
  if (present.length === 0) return text;
  let out = text;
  for (const secret of present.sort((a, b) => b.length - a.length)) out = out.split(secret).join(maskSecret(secret));
  return out;
}

/**
 * Replaces every known secret (and PEM blocks, Bearer values) in a text before it is logged or shown.
 * Holds the secrets by value; call `setSecrets` whenever the active credentials change.
 */
export class Redactor {
  private secrets: string[] = [];

  setSecrets(values: Iterable<string | undefined>): void {
    const unique = new Set<string>();
    for (const value of values) {
      if (!value) continue;
      const trimmed = value.trim();
      if (trimmed.length >= MIN_SECRET_LENGTH) unique.add(trimmed);
      // PEM keys also travel as their bare Base64 body lines; mask those lines too.
      for (const line of trimmed.split(/\r?\n/)) {
        if (line.length >= 40 && !line.startsWith('-----')) unique.add(line.trim());
      }
    }
    // Longest first so a secret that contains another is replaced whole.
    this.secrets = [...unique].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text.replace(
      /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
      '[private key redacted]',
    );
    out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{6,}/g, '$1[redacted]');
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
    }
    return out;
  }
}

/** Wraps a logger so every message is redacted. */
export function redactingLogger(inner: Logger, redactor: Redactor): Logger {
  return {
    trace: (m) => inner.trace(redactor.redact(m)),
    debug: (m) => inner.debug(redactor.redact(m)),
    info: (m) => inner.info(redactor.redact(m)),
    warn: (m) => inner.warn(redactor.redact(m)),
    error: (m) => inner.error(redactor.redact(m)),
  };
}
