// The GPU memory estimate (docs/deployments.md): a table of known answers worked by hand from the formula,
// the size read from a typed id, and the vLLM start command built from a plan.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CURATED_MODELS, findCuratedModel, validateModelId } from '../../../src/core/deployments/catalog';
import { bytesToGiB, estimateMemory, paramsFromId, shapeFor, type Precision } from '../../../src/core/deployments/estimate';
import { vllmArgs, vllmCommand } from '../../../src/core/deployments/vllmArgs';

describe('memory estimate', () => {
  // [model, precision, context, weights GiB, KV GiB, total GiB] — weights P·10⁹·b, KV 2·L·Hkv·d·C·2,
  // overhead 15 % of weights + 1.5 GiB.
  const table: [string, Precision, number, number, number, number][] = [
    ['Qwen/Qwen3-8B', 'bf16', 32_768, 15.27, 4.5, 23.6],
    ['Qwen/Qwen3-8B', 'bf16', 8_192, 15.27, 1.13, 20.2],
    ['Qwen/Qwen3-32B', 'bf16', 32_768, 61.09, 8.0, 79.8],
    ['Qwen/Qwen3-32B', 'fp8', 32_768, 30.55, 8.0, 44.6],
    ['meta-llama/Llama-3.3-70B-Instruct', 'bf16', 16_384, 131.5, 5.0, 157.7],
    ['someone/Qwen2.5-72B-Instruct-AWQ', 'int4', 8_192, 33.53, 2.0, 42.1],
  ];
  for (const [id, precision, context, weights, kv, total] of table) {
    it(`${id} ${precision} ${context} tokens → ${total} GB`, () => {
      const shape = shapeFor(id);
      assert.ok(shape, 'a shape is known');
      const estimate = estimateMemory(shape, precision, context);
      assert.equal(Number(bytesToGiB(estimate.weightsBytes).toFixed(2)), weights);
      assert.equal(Number(bytesToGiB(estimate.kvCacheBytes).toFixed(2)), kv);
      assert.equal(Number(bytesToGiB(estimate.totalBytes).toFixed(1)), total);
    });
  }

  it('grows linearly with the context (the KV cache) and halves the weights from bf16 to fp8', () => {
    const shape = shapeFor('Qwen/Qwen3-8B');
    assert.ok(shape);
    const short = estimateMemory(shape, 'bf16', 4096);
    const long = estimateMemory(shape, 'bf16', 4096 * 16);
    assert.equal(long.kvCacheBytes, short.kvCacheBytes * 16);
    assert.equal(estimateMemory(shape, 'fp8', 4096).weightsBytes * 2, short.weightsBytes);
  });

  it('reads the size from a typed id, and gives none when the name has none', () => {
    assert.equal(paramsFromId('Qwen/Qwen2.5-72B-Instruct'), 72);
    assert.equal(paramsFromId('Qwen/Qwen2.5-1.5B'), 1.5);
    assert.equal(paramsFromId('mistralai/Mixtral-8x7B-Instruct-v0.1'), 56);
    assert.equal(paramsFromId('org/model-v3'), undefined);
    assert.equal(shapeFor('org/model-v3'), undefined);
    assert.equal(shapeFor('org/model-v3', 3)?.paramsB, 3, 'the size the user gave');
    assert.equal(paramsFromId('x/' + '1'.repeat(100_000) + 'b'), undefined, 'a long name is cut, not scanned');
  });

  it('curated ids are valid Hugging Face ids with a context within the model’s own', () => {
    for (const model of CURATED_MODELS) {
      assert.equal(validateModelId(model.id), undefined, model.id);
      assert.ok(model.defaultContext <= model.maxContext, model.id);
      assert.equal(findCuratedModel(model.id.toUpperCase()), model);
    }
    assert.ok(validateModelId('no-slash'));
    assert.ok(validateModelId('a/b c'));
    assert.ok(validateModelId('a/b;rm -rf'));
  });
});

describe('vLLM arguments', () => {
  it('model, port, served name, context, memory share; tensor parallel only above one card; fp8 quantization', () => {
    assert.equal(
      vllmCommand({ model: 'Qwen/Qwen3-8B', servedModelName: 'Qwen/Qwen3-8B', contextTokens: 32_768, tensorParallel: 1, precision: 'bf16' }),
      'vllm serve Qwen/Qwen3-8B --host 0.0.0.0 --port 8000 --served-model-name Qwen/Qwen3-8B --max-model-len 32768 --gpu-memory-utilization 0.90',
    );
    const args = vllmArgs({ model: 'Qwen/Qwen3-32B', servedModelName: 'qwen3', contextTokens: 16_384, tensorParallel: 4, precision: 'fp8' });
    assert.deepEqual(args.slice(-4), ['--tensor-parallel-size', '4', '--quantization', 'fp8']);
    assert.equal(args[args.indexOf('--served-model-name') + 1], 'qwen3');
  });

  it('refuses a name that would need shell quoting', () => {
    assert.throws(() => vllmArgs({ model: 'a/b;reboot', servedModelName: 'x', contextTokens: 1, tensorParallel: 1, precision: 'bf16' }), /cannot go into a start command/);
    assert.throws(() => vllmArgs({ model: 'a/b', servedModelName: 'x y', contextTokens: 1, tensorParallel: 1, precision: 'bf16' }));
  });
});
