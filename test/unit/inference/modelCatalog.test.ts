// Which listed models can chat: the platform's real ids (docs/models.md) and common ids elsewhere.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isChatModel, modelsFromJson, nonChatKind } from '../../../src/core/inference/modelCatalog';

const TABLE: ReadonlyArray<readonly [string, ReturnType<typeof nonChatKind>]> = [
  // chat models on the platform
  ['deepseek/deepseek-v4-flash-0731-free', undefined],
  ['minimax/minimax-m2.5-awq', undefined],
  ['qwen/qwen3-32b', undefined],
  ['qwen/qwen3.8-27b', undefined],
  ['qwen/qwen3-omni-30b-a3b-instruct', undefined],
  ['qwen/qwen3-vl-30b-a3b-instruct', undefined],
  ['qwen/qwen3-vl-32b-instruct', undefined],
  ['free:QwQ-32B', undefined],
  ['sandbox/echo', undefined],
  // names that merely contain letters of a pattern stay chat models
  ['openai/gpt-4o-mini', undefined],
  ['mistral/codestral-22b', undefined],
  // non-chat models on the platform
  ['qwen/qwen3-embedding-4b', 'embedding'],
  ['qwen/qwen3-embedding-8b', 'embedding'],
  ['qwen/qwen3-reranker-8b', 'rerank'],
  ['black-forest-labs/flux.1-krea-dev', 'image'],
  ['stabilityai/stable-diffusion-3.5-medium', 'image'],
  ['qwen/qwen3-asr-1.7b', 'speech'],
  ['mineru/mineru2.5-pro-2604-1.2b', 'document'],
  // elsewhere
  ['text-embedding-3-small', 'embedding'],
  ['BAAI/bge-reranker-v2-m3', 'rerank'],
  ['openai/whisper-large-v3', 'speech'],
  ['fishaudio/tts-1', 'speech'],
  ['stabilityai/sdxl-turbo', 'image'],
];

describe('nonChatKind / isChatModel', () => {
  for (const [id, kind] of TABLE) {
    it(`${id} → ${kind ?? 'chat'}`, () => {
      assert.equal(nonChatKind(id), kind);
      assert.equal(isChatModel(id), kind === undefined);
    });
  }
});

describe('modelsFromJson', () => {
  it('reads the platform list shape, marks chat models, skips entries without an id', () => {
    const models = modelsFromJson({
      object: 'list',
      success: true,
      data: [
        { id: 'qwen/qwen3-32b', object: 'model', created: 1, owned_by: 'custom', supported_endpoint_types: ['openai'] },
        { id: 'qwen/qwen3-embedding-4b', object: 'model', owned_by: 'custom', supported_endpoint_types: ['openai'] },
        { id: 'vendor/painter', object: 'model', supported_endpoint_types: ['image-generation'] },
        { object: 'model' },
        'garbage',
      ],
    });
    assert.deepEqual(models, [
      { id: 'qwen/qwen3-32b', chat: true, ownedBy: 'custom' },
      { id: 'qwen/qwen3-embedding-4b', chat: false, ownedBy: 'custom' },
      { id: 'vendor/painter', chat: false },
    ]);
  });

  it('returns undefined for a body without a data array', () => {
    assert.equal(modelsFromJson({ object: 'list' }), undefined);
    assert.equal(modelsFromJson([]), undefined);
  });
});
