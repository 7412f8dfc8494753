// The bounded outputs of one cell (src/core/notebooks/cellOutputs.ts, outputTail.ts): whatever a kernel
// sends, the kept text and outputs stay bounded and what was dropped is counted; appending is linear.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CellOutputs, MAX_OUTPUTS, MAX_RICH_CHARS } from '../../../src/core/notebooks/cellOutputs';
import { MAX_STREAM_CHARS, OutputTail } from '../../../src/core/notebooks/outputTail';
import { assertLinearTime } from '../../helpers/linearTime';

const stream = (text: string, name = 'stdout') => ({ header: { msg_type: 'stream' }, content: { name, text } });
const display = (data: Record<string, unknown>, displayId?: string) => ({ header: { msg_type: 'display_data' }, content: { data, metadata: {}, transient: displayId ? { display_id: displayId } : {} } });

describe('notebooks: bounded cell outputs', () => {
  it('a tail keeps the last lines whole and counts every dropped line', () => {
    const tail = new OutputTail(3, 1_000);
    for (let line = 0; line < 10; line++) tail.append(`line ${line}\n`);
    assert.deepEqual(tail.snapshot(), { text: 'line 7\nline 8\nline 9\n', droppedLines: 7 });
  });

  it('a tail never holds more than twice its character bound, even from one huge chunk or many small ones', () => {
    const tail = new OutputTail(1_000_000, 100);
    tail.append('x'.repeat(10_000));
    for (let index = 0; index < 10_000; index++) tail.append('y\n');
    const { text, droppedLines } = tail.snapshot();
    assert.ok(text.length <= 100);
    assert.equal(droppedLines + text.split('\n').length - 1, 10_000);
  });

  it('consecutive stream text of one name is one output; stderr starts another', () => {
    const outputs = new CellOutputs();
    outputs.add(stream('a'));
    outputs.add(stream('b\n'));
    outputs.add(stream('oops\n', 'stderr'));
    assert.deepEqual(outputs.view().outputs.map((output) => (output.kind === 'stream' ? [output.name, output.text] : output.kind)), [['stdout', 'ab\n'], ['stderr', 'oops\n']]);
  });

  it('clear_output(wait) clears on the next output; update_display_data replaces by display id', () => {
    const outputs = new CellOutputs();
    outputs.add(display({ 'text/plain': '1' }, 'progress'));
    outputs.add({ header: { msg_type: 'update_display_data' }, content: { data: { 'text/plain': '2' }, metadata: {}, transient: { display_id: 'progress' } } });
    assert.deepEqual(outputs.view().outputs.map((output) => (output.kind === 'rich' ? output.data['text/plain'] : '')), ['2']);
    outputs.add({ header: { msg_type: 'clear_output' }, content: { wait: true } });
    assert.equal(outputs.view().outputs.length, 1, 'kept until the next output');
    outputs.add(stream('fresh\n'));
    assert.deepEqual(outputs.view().outputs.map((output) => output.kind), ['stream']);
  });

  it('at most MAX_OUTPUTS outputs, the oldest dropped and counted; rich data past the bound becomes a note', () => {
    const outputs = new CellOutputs();
    for (let index = 0; index < MAX_OUTPUTS + 5; index++) outputs.add(display({ 'text/plain': String(index) }));
    const view = outputs.view();
    assert.equal(view.outputs.length, MAX_OUTPUTS);
    assert.equal(view.droppedOutputs, 5);
    const big = new CellOutputs();
    big.add(display({ 'text/html': 'x'.repeat(MAX_RICH_CHARS + 1) }));
    assert.deepEqual(big.view().outputs, [{ kind: 'too-large', chars: MAX_RICH_CHARS + 1 }]);
  });

  it('hostile shapes: missing fields, lists of lines, unknown types are taken without throwing', () => {
    const outputs = new CellOutputs();
    outputs.add({ header: { msg_type: 'stream' }, content: null });
    outputs.add({ header: { msg_type: 'stream' }, content: { text: ['a', 'b\n', 3] } });
    outputs.add({ header: { msg_type: 'error' }, content: { traceback: 'not a list' } });
    outputs.add({ header: { msg_type: 'comm_msg' }, content: {} });
    assert.deepEqual(outputs.view().outputs.map((output) => output.kind), ['stream', 'error']);
  });

  it('appending is linear in what arrives (one line per message)', () => {
    assertLinearTime(
      'stream tail',
      (n) => Array.from({ length: n }, (_, index) => `${index}\n`),
      (chunks) => {
        const outputs = new CellOutputs();
        for (const chunk of chunks) outputs.add(stream(chunk));
        return outputs.view();
      },
      { n: MAX_STREAM_CHARS / 20 },
    );
  });
});
