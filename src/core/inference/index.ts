// The model client (interface B): everything other layers import from src/core/inference.
export * from './api';
export { createModelClient, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_FIRST_TOKEN_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS } from './client';
export { isChatModel, nonChatKind, modelsFromJson, type NonChatKind } from './modelCatalog';
export { ModelApiError, errorFromHttpResponse, errorFromJson } from './modelErrors';
export { chatRequestBody } from './requestBody';
export { ChatStreamAccumulator } from './chatChunks';
export { SseDecoder, SseEventAssembler, SseLineSplitter, type SseEvent } from './sseDecoder';
export { ToolCallAssembler, parseToolArguments, MAX_TOOL_CALLS } from './toolCalls';
export { limitsFor, DEFAULT_LIMITS, type ModelLimits } from './modelLimits';
export { estimateTokens, TOKENS_PER_MESSAGE } from './tokenEstimate';
