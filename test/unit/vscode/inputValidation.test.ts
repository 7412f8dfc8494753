// When a wizard's input box shows its validation message (src/vscode/ui/inputValidation.ts).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageOnOpen } from '../../../src/vscode/ui/inputValidation';

const required = (value: string): string | undefined => (value.trim().length === 0 ? 'Enter the bucket.' : undefined);
const wholeNumber = (value: string): string | undefined => (/^\d+$/.test(value) ? undefined : 'Enter a whole number.');

describe('input box validation as a step opens', () => {
  it('an empty box shows no error before the user typed anything', () => {
    assert.equal(messageOnOpen('', required), undefined);
    assert.equal(messageOnOpen('', wholeNumber), undefined);
  });

  it('a prefilled value is checked at once (a default, or the answer kept when going Back)', () => {
    assert.equal(messageOnOpen('   ', required), 'Enter the bucket.');
    assert.equal(messageOnOpen('12a', wholeNumber), 'Enter a whole number.');
    assert.equal(messageOnOpen('12', wholeNumber), undefined);
  });

  it('no validator, no message', () => {
    assert.equal(messageOnOpen('anything', undefined), undefined);
  });
});
