// Starting points for a new job (Create Job…): an image and the command an ML engineer would run.

export interface JobTemplate {
  id: 'pytorch' | 'vllm-batch' | 'custom';
  image: string;
  command: string;
  env: { name: string; value: string }[];
}

export const JOB_TEMPLATES: readonly JobTemplate[] = [
  {
    id: 'pytorch',
    image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime',
    command: 'python train.py',
    env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
  },
  {
    id: 'vllm-batch',
    image: 'vllm/vllm-openai:v0.6.3',
    command: 'python -m vllm.entrypoints.openai.run_batch -i input.jsonl -o output.jsonl --model Qwen/Qwen2.5-7B-Instruct',
    env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
  },
  { id: 'custom', image: '', command: '', env: [] },
];
