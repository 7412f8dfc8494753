// Tokens and API keys travel as HTTP header values (and the compute token is signed verbatim), so a
// line break or another character a header cannot carry must be refused with a message about the
// secret — where it is stored and again before it is used — instead of surfacing as a network error
// from the HTTP stack. Messages never quote the value.

import { ConfigError } from './errors';

/** The secrets that travel in headers, by the names the editor layer stores them under. */
export type HeaderSecret = 'apiToken' | 'modelApiKey';

export const HEADER_SECRET_LABELS: Record<HeaderSecret, string> = {
  apiToken: 'API token',
  modelApiKey: 'model API key',
};

/** What is wrong with a token or key (already trimmed or not), or undefined when it can be sent. */
export function headerSecretProblem(value: string, label: string): string | undefined {
  const text = value.trim();
  if (text === '') return `The ${label} is empty.`;
  if (text.includes('-----BEGIN')) return `This is a PEM key, not the ${label}.`;
  if (text.includes('\r') || text.includes('\n')) return `The ${label} contains a line break (CR or LF), which no request can carry: copy it again, without the line break.`;
  if (/\s/.test(text)) return `The ${label} contains a space or tab: copy it again.`;
  if (/[^\x21-\x7e]/.test(text)) return `The ${label} contains a character that is not printable ASCII: copy it again.`;
  return undefined;
}

/** A stored token or key that cannot be sent; `secret` says which, so the UI offers the command that stores it. */
export class InvalidSecretError extends ConfigError {
  constructor(
    readonly secret: HeaderSecret,
    problem: string,
  ) {
    super(problem, `Store the ${HEADER_SECRET_LABELS[secret]} again.`);
  }
}

/** The trimmed value, or an InvalidSecretError naming the secret (never its value). */
export function checkedHeaderSecret(value: string, secret: HeaderSecret): string {
  const problem = headerSecretProblem(value, HEADER_SECRET_LABELS[secret]);
  if (problem) throw new InvalidSecretError(secret, problem);
  return value.trim();
}
