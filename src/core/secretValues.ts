// Tokens and API keys travel as HTTP header values (and the compute token is signed verbatim), so a
// line break or another character a header cannot carry must be refused with a message about the
// secret — where it is stored and again before it is used — instead of surfacing as a network error
// from the HTTP stack. Messages never quote the value.

import { ConfigError, coreText, type CoreArg, type CoreText } from './errors';
import { englishText } from './errors/messages';

/** The secrets that travel in headers, by the names the editor layer stores them under. */
export type HeaderSecret = 'apiToken' | 'modelApiKey';

export const HEADER_SECRET_LABELS: Record<HeaderSecret, string> = {
  apiToken: 'API token',
  modelApiKey: 'model API key',
};

/** What is wrong with a token or key (already trimmed or not), or undefined when it can be sent. */
export function headerSecretProblem(value: string, label: string): string | undefined {
  const problem = headerSecretProblemText(value, label);
  return problem ? englishText(problem) : undefined;
}

/** The secret's name as a message parameter, worded in the display language by the editor. */
export function secretWord(secret: HeaderSecret): CoreText {
  return coreText(secret === 'apiToken' ? 'secret.apiToken' : 'secret.modelApiKey');
}

/** headerSecretProblem as a message key (errors/messages.ts); `name` is the secret's name, never its value. */
export function headerSecretProblemText(value: string, name: CoreArg): CoreText | undefined {
  const text = value.trim();
  if (text === '') return coreText('key.empty', name);
  if (text.includes('-----BEGIN')) return coreText('secret.pem', name);
  if (text.includes('\r') || text.includes('\n')) return coreText('secret.lineBreak', name);
  if (/\s/.test(text)) return coreText('secret.space', name);
  if (/[^\x21-\x7e]/.test(text)) return coreText('secret.nonAscii', name);
  return undefined;
}

/** A stored token or key that cannot be sent; `secret` says which, so the UI offers the command that stores it. */
export class InvalidSecretError extends ConfigError {
  constructor(
    readonly secret: HeaderSecret,
    problem: CoreText,
  ) {
    super(problem, coreText('secret.storeAgain.hint', secretWord(secret)));
  }
}

/** The trimmed value, or an InvalidSecretError naming the secret (never its value). */
export function checkedHeaderSecret(value: string, secret: HeaderSecret): string {
  const problem = headerSecretProblemText(value, secretWord(secret));
  if (problem) throw new InvalidSecretError(secret, problem);
  return value.trim();
}
