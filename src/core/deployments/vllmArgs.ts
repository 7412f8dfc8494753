// The start command of a deployment (docs/deployments.md): vLLM's OpenAI-compatible server for the model,
// split across the cards, with the asked context and memory share. The command line is what the create
// body's `start_script_v2.command` carries (docs/platform.md), so nothing in it may need shell quoting.

import type { Precision } from './estimate';
import { GPU_MEMORY_UTILIZATION } from './estimate';

export const VLLM_IMAGE = 'vllm/vllm-openai:latest';
export const VLLM_PORT = 8000;

export interface DeployPlan {
  model: string;
  /** The id /v1/models lists and the chat sends; the model id unless changed. */
  servedModelName: string;
  contextTokens: number;
  tensorParallel: number;
  precision: Precision;
}

const SAFE_TOKEN = /^[A-Za-z0-9._\-/]+$/;

export function vllmArgs(plan: DeployPlan): string[] {
  for (const value of [plan.model, plan.servedModelName]) {
    if (!SAFE_TOKEN.test(value)) throw new Error(`"${value.slice(0, 80)}" cannot go into a start command: use letters, digits and . _ - /`);
  }
  const args = [
    'vllm', 'serve', plan.model,
    '--host', '0.0.0.0',
    '--port', String(VLLM_PORT),
    '--served-model-name', plan.servedModelName,
    '--max-model-len', String(Math.floor(plan.contextTokens)),
    '--gpu-memory-utilization', GPU_MEMORY_UTILIZATION.toFixed(2),
  ];
  if (plan.tensorParallel > 1) args.push('--tensor-parallel-size', String(plan.tensorParallel));
  // bf16 is the checkpoint's own precision; int4 needs an AWQ/GPTQ checkpoint, which vLLM detects itself.
  if (plan.precision === 'fp8') args.push('--quantization', 'fp8');
  return args;
}

export function vllmCommand(plan: DeployPlan): string {
  return vllmArgs(plan).join(' ');
}
