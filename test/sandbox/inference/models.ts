// The sandbox's model catalogue: chat models and the non-chat kinds the real platform lists beside them
// (docs/models.md), so clients must filter. `displayName` is what the platform reports back in `model`.

export interface SandboxModel {
  id: string;
  displayName: string;
  ownedBy: string;
  created: number;
  supportedEndpointTypes: string[];
  chat: boolean;
  /** Emits `delta.reasoning` before the answer, like the platform's thinking models. */
  reasoning?: boolean;
  /** Answers with the last user message verbatim (exact assertions in tests). */
  echo?: boolean;
  /** Deterministic tool calling: `/tool NAME {json}` calls NAME, a tool result is answered from (replies.ts). */
  tools?: boolean;
}

const CREATED = 1_785_000_000; // fixed so listings are reproducible

export const SANDBOX_MODELS: readonly SandboxModel[] = [
  { id: 'deepseek/deepseek-v4-flash-0731-free', displayName: 'DeepSeek-V4-Flash-0731', ownedBy: 'custom', created: CREATED, supportedEndpointTypes: ['openai'], chat: true },
  { id: 'qwen/qwen3-32b', displayName: 'Qwen3-32B', ownedBy: 'custom', created: CREATED + 1, supportedEndpointTypes: ['openai'], chat: true },
  { id: 'sandbox/echo', displayName: 'Sandbox-Echo', ownedBy: 'sandbox', created: CREATED + 2, supportedEndpointTypes: ['openai'], chat: true, echo: true },
  { id: 'sandbox/reasoning', displayName: 'Sandbox-Reasoning', ownedBy: 'sandbox', created: CREATED + 3, supportedEndpointTypes: ['openai'], chat: true, reasoning: true },
  { id: 'sandbox/tools', displayName: 'Sandbox-Tools', ownedBy: 'sandbox', created: CREATED + 9, supportedEndpointTypes: ['openai'], chat: true, tools: true },
  { id: 'qwen/qwen3-embedding-4b', displayName: 'Qwen3-Embedding-4B', ownedBy: 'custom', created: CREATED + 4, supportedEndpointTypes: ['openai'], chat: false },
  { id: 'qwen/qwen3-reranker-8b', displayName: 'Qwen3-Reranker-8B', ownedBy: 'custom', created: CREATED + 5, supportedEndpointTypes: ['openai'], chat: false },
  { id: 'black-forest-labs/flux.1-krea-dev', displayName: 'FLUX.1-Krea-dev', ownedBy: 'custom', created: CREATED + 6, supportedEndpointTypes: ['image-generation', 'openai'], chat: false },
  { id: 'qwen/qwen3-asr-1.7b', displayName: 'Qwen3-ASR-1.7B', ownedBy: 'custom', created: CREATED + 7, supportedEndpointTypes: ['openai'], chat: false },
  { id: 'mineru/mineru2.5-pro-2604-1.2b', displayName: 'MinerU2.5-Pro', ownedBy: 'custom', created: CREATED + 8, supportedEndpointTypes: ['openai'], chat: false },
];

export function findModel(id: string): SandboxModel | undefined {
  return SANDBOX_MODELS.find((model) => model.id === id);
}

/** Body of GET /v1/models, in the platform's new-api shape (`success` beside the OpenAI list). */
export function modelListBody(): unknown {
  return {
    object: 'list',
    success: true,
    data: SANDBOX_MODELS.map((model) => ({
      id: model.id,
      object: 'model',
      created: model.created,
      owned_by: model.ownedBy,
      supported_endpoint_types: model.supportedEndpointTypes,
    })),
  };
}
