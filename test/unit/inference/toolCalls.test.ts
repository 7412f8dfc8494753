// Tool-call assembly from streamed fragments (every split of the arguments), bounds, and the token estimate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError } from '../../../src/core/errors';
import { assertLinearTime, flat } from '../../helpers/linearTime';
import { estimateTokens, limitsFor, DEFAULT_LIMITS, MAX_TOOL_CALLS, parseToolArguments, ToolCallAssembler } from '../../../src/core/inference';

describe('ToolCallAssembler', () => {
  const args = '{"task_id":42,"name":"训练"}';

  it('joins argument fragments at every split point, keeping id and name from the first fragment', () => {
    for (let cut = 0; cut <= args.length; cut++) {
      const assembler = new ToolCallAssembler();
      assembler.apply([{ index: 0, id: 'call_1', type: 'function', function: { name: 'compute_get_task', arguments: '' } }]);
      assembler.apply([{ index: 0, function: { arguments: args.slice(0, cut) } }]);
      assembler.apply([{ index: 0, function: { arguments: args.slice(cut) } }]);
      const [call] = assembler.take();
      assert.deepEqual(call, { id: 'call_1', name: 'compute_get_task', arguments: args });
      assert.deepEqual(parseToolArguments(call!), { task_id: 42, name: '训练' });
    }
  });

  it('keeps parallel calls apart by index and returns them in index order, once', () => {
    const assembler = new ToolCallAssembler();
    assembler.apply([{ index: 1, id: 'b', function: { name: 'two', arguments: '{"x":' } }, { index: 0, id: 'a', function: { name: 'one', arguments: '{}' } }]);
    assembler.apply([{ index: 1, function: { arguments: '2}' } }]);
    assert.deepEqual(assembler.take().map((call) => [call.id, call.name, call.arguments]), [['a', 'one', '{}'], ['b', 'two', '{"x":2}']]);
    assert.deepEqual(assembler.take(), []);
  });

  it('is bounded in calls and argument size', () => {
    const many = new ToolCallAssembler();
    assert.throws(() => many.apply(Array.from({ length: MAX_TOOL_CALLS + 1 }, (_, index) => ({ index, id: `c${index}`, function: { name: 'x' } }))), ProtocolError);
    const big = new ToolCallAssembler();
    assert.throws(() => {
      for (let i = 0; i < 100; i++) big.apply([{ index: 0, function: { name: 'x', arguments: 'a'.repeat(10_000) } }]);
    }, /exceed/);
  });

  it('arguments that are not a JSON object are a protocol error; empty means {}', () => {
    assert.deepEqual(parseToolArguments({ id: 'a', name: 'n', arguments: ' ' }), {});
    assert.throws(() => parseToolArguments({ id: 'a', name: 'n', arguments: '[1]' }), /not a JSON object/);
    assert.throws(() => parseToolArguments({ id: 'a', name: 'n', arguments: '{"a":' }), /not valid JSON/);
  });
});

describe('model limits and token estimate', () => {
  it('curated limits for the platform families, a safe default otherwise', () => {
    assert.equal(limitsFor('deepseek/deepseek-v4-flash-0731-free').maxInputTokens, 120_000);
    assert.equal(limitsFor('qwen/qwen3-vl-32b-instruct').imageInput, true);
    assert.equal(limitsFor('qwen/qwen3-32b').toolCalling, true);
    assert.deepEqual(limitsFor('acme/unknown-7b'), DEFAULT_LIMITS);
    assert.equal(DEFAULT_LIMITS.toolCalling, false);
  });

  it('counts CJK characters one each and other text about four characters a token', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('你好世界'), 4);
    assert.equal(estimateTokens('GPU 算力'), 3);
  });

  it('is linear: 32× the text costs about 32× the time, not 1,024×', () => {
    assertLinearTime('estimateTokens', (n) => flat('hello 世界 '.repeat(n)), (text) => estimateTokens(text), { n: 2_000 });
  });
});
