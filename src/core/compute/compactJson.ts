// The exact text of a request body (docs/signing.md): what is signed, encrypted and sent. Apart from
// encryption.ts so the operations module, which the editor loads at activation, needs no crypto.

import { ConfigError, coreText } from '../errors';
import { MAX_BODY_BYTES, MAX_BODY_VALUES, measureBody } from './bodySize';

function tooLarge(): ConfigError {
  return new ConfigError(coreText('body.tooLarge', MAX_BODY_BYTES / 1024), coreText('body.tooLarge.hint'));
}

function tooManyValues(): ConfigError {
  return new ConfigError(coreText('body.tooManyValues', MAX_BODY_VALUES), coreText('body.tooLarge.hint'));
}

/**
 * JSON.stringify without indentation keeps non-ASCII characters as they are, as the spec asks. A body
 * over MAX_BODY_BYTES, or of more than MAX_BODY_VALUES values, is refused: most before it is written
 * out, the rest by its exact size.
 */
export function compactJson(value: unknown): string {
  const measure = measureBody(value);
  if (measure.values > MAX_BODY_VALUES) throw tooManyValues();
  if (measure.atLeast > MAX_BODY_BYTES) throw tooLarge();
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new ConfigError(coreText('body.notJson', typeof value));
  }
  // Three bytes at most per UTF-16 unit: only a text that could be over the cap is counted.
  if (text.length * 3 > MAX_BODY_BYTES && Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) throw tooLarge();
  return text;
}
