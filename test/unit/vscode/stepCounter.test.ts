// Multi-step inputs never change their step total mid-flow (Sign Request showed 1/2 then 2/3), and a
// step's note (the cost of a node count) keeps the step's question beside it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StepCounter, noteWithPrompt } from '../../../src/vscode/ui/inputValidation';

function shown(declared: (number | undefined)[]): (number | undefined)[] {
  const counter = new StepCounter();
  return declared.map((total) => counter.totalFor(total));
}

describe('step counters', () => {
  it('a total known from the start stays, Back and forth', () => {
    assert.deepEqual(shown([9, 9, 9, 9, 9]), [9, 9, 9, 9, 9]);
  });

  it('a total that changes mid-flow is never shown as a different fraction: no fraction from then on', () => {
    // The old Sign Request: 1/2, then the operation's own total.
    assert.deepEqual(shown([2, 3, 3]), [2, undefined, undefined]);
    // The hand-written request: 4 steps for GET, 6 once POST is picked.
    assert.deepEqual(shown([undefined, 4, 6, 6]), [undefined, undefined, undefined, undefined]);
  });

  it('a flow whose first step cannot know the total shows none', () => {
    assert.deepEqual(shown([undefined, 6, 6, 6]), [undefined, undefined, undefined, undefined]);
  });

  it('a note keeps the question in front of it', () => {
    assert.equal(noteWithPrompt('Number of nodes (1–20)', '2 × ¥1.98/h = ¥3.96/h'), 'Number of nodes (1–20) — 2 × ¥1.98/h = ¥3.96/h');
    assert.equal(noteWithPrompt('', 'x'), 'x');
  });
});
