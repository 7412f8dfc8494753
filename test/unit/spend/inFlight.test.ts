// Requests in flight (src/core/spend/inFlight.ts): a deployed model answers while any request to it is
// open; each end counts once, so a reply ended twice never hides another still answering.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InFlight } from '../../../src/core/spend/inFlight';

describe('spend: requests in flight', () => {
  it('counts per key until every start has ended', () => {
    const inFlight = new InFlight<number>();
    const first = inFlight.start(7);
    const second = inFlight.start(7);
    const other = inFlight.start(8);
    assert.deepEqual(inFlight.keys().sort(), [7, 8]);
    first();
    first(); // an end called twice (finished, then failed) counts once
    assert.deepEqual(inFlight.keys().sort(), [7, 8]);
    second();
    other();
    assert.deepEqual(inFlight.keys(), []);
  });
});
