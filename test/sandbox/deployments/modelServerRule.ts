// Which sandbox tasks serve an OpenAI-compatible model API at their public URL (docs/deployments.md,
// "Sandbox"): a service whose start command runs vLLM's server —
//   `vllm serve MODEL …`                                   (the create wizard's vLLM template, Deploy a Model…)
//   `python -m vllm.entrypoints.openai.api_server --model MODEL …`
//   image `vllm/vllm-openai…` with `--model MODEL` in its command or args (the image's own entrypoint)
// The model id it answers to is `--served-model-name` when given, else MODEL; it listens on `--port`
// (default 8000), which must be one of the service's remote ports; `--api-key K` makes it require
// `Authorization: Bearer K`, as vLLM does. `--max-model-len` is reported in /v1/models.

import type { ServiceSpec } from '../../../src/core/compute/api';

export interface ModelServerSpec {
  /** The id /v1/models lists and chat requests must name. */
  servedModel: string;
  /** The weights it loads (`--model` / the positional of `vllm serve`). */
  model: string;
  servicePort: number;
  apiKey: string | undefined;
  maxModelLen: number;
}

const DEFAULT_PORT = 8000;
const DEFAULT_MAX_MODEL_LEN = 32_768;
/** A start line longer than this is not a model server (bounded work on whatever a test creates). */
const MAX_COMMAND_CHARS = 8_192;

function commandTokens(service: ServiceSpec): string[] {
  const script = service.start_script_v2;
  const line = [script?.command ?? '', ...(script?.args ?? [])].join(' ');
  if (line.length > MAX_COMMAND_CHARS) return [];
  return line.split(/\s+/).filter((token) => token.length > 0);
}

/** `--flag value` or `--flag=value`. */
function flag(tokens: readonly string[], name: string): string | undefined {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? '';
    if (token === name) return tokens[index + 1];
    if (token.startsWith(`${name}=`)) return token.slice(name.length + 1);
  }
  return undefined;
}

function positiveInt(text: string | undefined, fallback: number): number {
  return text !== undefined && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : fallback;
}

/** The model server a service runs, or undefined when it is not one by the rule above. */
export function modelServerOf(service: ServiceSpec): ModelServerSpec | undefined {
  const tokens = commandTokens(service);
  const serveAt = tokens.findIndex((token, index) => token === 'serve' && /(^|\/)vllm$/.test(tokens[index - 1] ?? ''));
  const apiServer = tokens.includes('vllm.entrypoints.openai.api_server');
  const vllmImage = /(^|\/)vllm-openai(:|@|$)/.test(service.service_image.trim());
  let model: string | undefined;
  if (serveAt >= 0) {
    const positional = tokens[serveAt + 1];
    model = positional !== undefined && !positional.startsWith('-') ? positional : flag(tokens, '--model');
  } else if (apiServer || vllmImage) {
    model = flag(tokens, '--model');
  }
  if (model === undefined || model.length === 0) return undefined;
  const servicePort = positiveInt(flag(tokens, '--port'), DEFAULT_PORT);
  if (!service.remote_ports.some((port) => port.service_port === servicePort)) return undefined;
  return {
    servedModel: flag(tokens, '--served-model-name') ?? model,
    model,
    servicePort,
    apiKey: flag(tokens, '--api-key'),
    maxModelLen: positiveInt(flag(tokens, '--max-model-len'), DEFAULT_MAX_MODEL_LEN),
  };
}
