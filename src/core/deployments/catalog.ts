// A short curated list of popular open chat models a user can deploy with vLLM, with what the memory
// estimate needs (docs/deployments.md): parameters, layers, key/value heads and head size, and a default
// context. Any other Hugging Face id can be typed; its size then comes from its name (estimate.ts).

export interface ModelShape {
  /** Billions of parameters (all experts for a mixture of experts: all of them are loaded). */
  paramsB: number;
  layers: number;
  kvHeads: number;
  headDim: number;
}

export interface CuratedModel extends ModelShape {
  /** The Hugging Face id vLLM loads. */
  id: string;
  /** Context the deploy offers by default (tokens). */
  defaultContext: number;
  /** Longest context the model supports (tokens). */
  maxContext: number;
}

export const CURATED_MODELS: readonly CuratedModel[] = [
  { id: 'Qwen/Qwen3-8B', paramsB: 8.2, layers: 36, kvHeads: 8, headDim: 128, defaultContext: 32_768, maxContext: 40_960 },
  { id: 'Qwen/Qwen3-14B', paramsB: 14.8, layers: 40, kvHeads: 8, headDim: 128, defaultContext: 32_768, maxContext: 40_960 },
  { id: 'Qwen/Qwen3-32B', paramsB: 32.8, layers: 64, kvHeads: 8, headDim: 128, defaultContext: 32_768, maxContext: 40_960 },
  { id: 'Qwen/Qwen3-30B-A3B', paramsB: 30.5, layers: 48, kvHeads: 4, headDim: 128, defaultContext: 32_768, maxContext: 40_960 },
  { id: 'Qwen/Qwen2.5-Coder-7B-Instruct', paramsB: 7.6, layers: 28, kvHeads: 4, headDim: 128, defaultContext: 32_768, maxContext: 32_768 },
  { id: 'Qwen/Qwen2.5-Coder-32B-Instruct', paramsB: 32.8, layers: 64, kvHeads: 8, headDim: 128, defaultContext: 32_768, maxContext: 32_768 },
  { id: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', paramsB: 7.6, layers: 28, kvHeads: 4, headDim: 128, defaultContext: 32_768, maxContext: 131_072 },
  { id: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', paramsB: 32.8, layers: 64, kvHeads: 8, headDim: 128, defaultContext: 32_768, maxContext: 131_072 },
  { id: 'meta-llama/Llama-3.1-8B-Instruct', paramsB: 8.0, layers: 32, kvHeads: 8, headDim: 128, defaultContext: 16_384, maxContext: 131_072 },
  { id: 'meta-llama/Llama-3.3-70B-Instruct', paramsB: 70.6, layers: 80, kvHeads: 8, headDim: 128, defaultContext: 16_384, maxContext: 131_072 },
  { id: 'THUDM/glm-4-9b-chat', paramsB: 9.4, layers: 40, kvHeads: 2, headDim: 128, defaultContext: 32_768, maxContext: 131_072 },
  { id: 'google/gemma-3-12b-it', paramsB: 12.2, layers: 48, kvHeads: 8, headDim: 256, defaultContext: 32_768, maxContext: 131_072 },
  { id: 'mistralai/Mistral-7B-Instruct-v0.3', paramsB: 7.25, layers: 32, kvHeads: 8, headDim: 128, defaultContext: 32_768, maxContext: 32_768 },
];

/** A Hugging Face id: `owner/name`, the characters the Hub allows, bounded. */
export function validateModelId(text: string): string | undefined {
  const id = text.trim();
  if (id.length === 0) return 'Enter a model id such as Qwen/Qwen3-8B.';
  if (id.length > 200) return 'A model id has at most 200 characters.';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return 'Use the Hugging Face form owner/name (letters, digits, . _ -).';
  return undefined;
}

export function findCuratedModel(id: string): CuratedModel | undefined {
  const wanted = id.trim().toLowerCase();
  return CURATED_MODELS.find((model) => model.id.toLowerCase() === wanted);
}
