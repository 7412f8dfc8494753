// What the model list does not say: context sizes, tool calling and image input per model, from a
// curated table of id patterns (first match wins) with a safe default for unknown models. Sizes are the
// published context windows of each family, rounded down; the output cap leaves room for the prompt.

export interface ModelLimits {
  maxInputTokens: number;
  maxOutputTokens: number;
  toolCalling: boolean;
  imageInput: boolean;
}

const TABLE: ReadonlyArray<readonly [RegExp, ModelLimits]> = [
  [/deepseek-v4/, { maxInputTokens: 120_000, maxOutputTokens: 8_192, toolCalling: true, imageInput: false }],
  [/deepseek/, { maxInputTokens: 60_000, maxOutputTokens: 8_192, toolCalling: true, imageInput: false }],
  [/minimax-m2/, { maxInputTokens: 180_000, maxOutputTokens: 16_384, toolCalling: true, imageInput: false }],
  [/qwen3-vl/, { maxInputTokens: 120_000, maxOutputTokens: 8_192, toolCalling: true, imageInput: true }],
  [/qwen3-omni/, { maxInputTokens: 60_000, maxOutputTokens: 8_192, toolCalling: false, imageInput: true }],
  [/qwen3\.\d+/, { maxInputTokens: 120_000, maxOutputTokens: 8_192, toolCalling: true, imageInput: false }],
  [/qwen3/, { maxInputTokens: 32_000, maxOutputTokens: 8_192, toolCalling: true, imageInput: false }],
  [/^sandbox\/tools$/, { maxInputTokens: 32_000, maxOutputTokens: 4_096, toolCalling: true, imageInput: false }],
];

/** Unknown models: a small window and no tools, so nothing is sent that the model cannot take. */
export const DEFAULT_LIMITS: ModelLimits = { maxInputTokens: 8_000, maxOutputTokens: 2_048, toolCalling: false, imageInput: false };

export function limitsFor(modelId: string): ModelLimits {
  const id = modelId.toLowerCase();
  for (const [pattern, limits] of TABLE) if (pattern.test(id)) return limits;
  return DEFAULT_LIMITS;
}
