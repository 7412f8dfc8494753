// Which listed models can chat. The platform's /models lists embedding, rerank, image, speech and document
// models beside the chat ones, and `supported_endpoint_types` does not tell them apart (docs/models.md),
// so the id decides: a short table of name patterns, each with the kind it reveals.

import type { ModelInfo } from './api';
import { isRecord } from './modelErrors';

export type NonChatKind = 'embedding' | 'rerank' | 'image' | 'speech' | 'document';

/** Matched against the lower-cased id. Order matters only for the reported kind. */
const NON_CHAT_PATTERNS: ReadonlyArray<readonly [NonChatKind, RegExp]> = [
  ['embedding', /embed/], // qwen/qwen3-embedding-4b, text-embedding-3-small, bge-m3-embed
  ['rerank', /rerank/], // qwen/qwen3-reranker-8b, bge-reranker-v2
  ['image', /flux|diffusion|(^|[/_.-])sd(xl|3)?([_.-]|$)|dall-e|gpt-image|image-gen/], // flux.1-krea-dev, stable-diffusion-3.5
  ['speech', /(^|[/_.-])(asr|tts|whisper|speech|sensevoice|cosyvoice)([_.-]|\d|$)/], // qwen/qwen3-asr-1.7b
  ['document', /mineru|(^|[/_.-])ocr([_.-]|$)/], // mineru/mineru2.5-pro-2604-1.2b
];

/** The kind of a model that cannot chat, or undefined for a chat model. */
export function nonChatKind(id: string): NonChatKind | undefined {
  const lower = id.toLowerCase();
  for (const [kind, pattern] of NON_CHAT_PATTERNS) {
    if (pattern.test(lower)) return kind;
  }
  return undefined;
}

export function isChatModel(id: string): boolean {
  return nonChatKind(id) === undefined;
}

/** Reads a `GET /models` body (`{data:[{id, owned_by, …}]}`); entries without a string id are skipped. */
export function modelsFromJson(json: unknown): ModelInfo[] | undefined {
  if (!isRecord(json) || !Array.isArray(json['data'])) return undefined;
  const models: ModelInfo[] = [];
  for (const entry of json['data'] as unknown[]) {
    if (!isRecord(entry) || typeof entry['id'] !== 'string' || entry['id'] === '') continue;
    const id = entry['id'];
    const endpointTypes = entry['supported_endpoint_types'];
    // An entry that lists only image generation is an image model whatever its name.
    const imageOnly =
      Array.isArray(endpointTypes) && endpointTypes.length > 0 && endpointTypes.every((type) => type === 'image-generation');
    const info: ModelInfo = { id, chat: !imageOnly && isChatModel(id) };
    if (typeof entry['owned_by'] === 'string') info.ownedBy = entry['owned_by'];
    // vLLM reports the context it was started with (docs/deployments.md).
    const maxModelLen = entry['max_model_len'];
    if (typeof maxModelLen === 'number' && Number.isSafeInteger(maxModelLen) && maxModelLen > 0) info.maxModelLen = maxModelLen;
    models.push(info);
  }
  return models;
}
