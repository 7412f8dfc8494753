// The exact text of a request body (docs/signing.md): what is signed, encrypted and sent. Apart from
// encryption.ts so the operations module, which the editor loads at activation, needs no crypto.

import { ConfigError, coreText } from '../errors';

/** JSON.stringify without indentation keeps non-ASCII characters as they are, as the spec asks. */
export function compactJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new ConfigError(coreText('body.notJson', typeof value));
  }
  return text;
}
