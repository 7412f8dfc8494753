// The small project folder the browser-driven checks (and `npm start`) open in VS Code.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SAMPLE_PYTHON_FILE = 'fibonacci.py';
/** A line of the sample that the selection-to-prompt check expects to find quoted in the chat input. */
export const SAMPLE_PYTHON_FIRST_LINE = 'def fibonacci(n: int) -> list[int]:';
/** The file's last line, outside the selection that check makes. */
export const SAMPLE_PYTHON_LAST_LINE = '    print(fibonacci(10))';

/** A spec of the task the sandbox seeds (qwen3-32b-serving, the first task id), edited: 3 nodes, a new image, an env change. */
export const SAMPLE_SPEC_FILE = 'qwen3-serving.task.json';

/** A batch job spec not yet deployed: its Plan says what Deploy would create and what it costs. */
export const SAMPLE_JOB_SPEC_FILE = 'train-lora.job.json';

const files: Record<string, string> = {
  [SAMPLE_JOB_SPEC_FILE]: `${JSON.stringify(
    {
      kind: 'job',
      name: 'train-lora',
      resource: { gpu: 'RTX 4090', gpuCount: 1, region: 'beijing-jxq-p1' },
      spot: true,
      estimatedSeconds: 1500,
      completions: 4,
      parallelism: 2,
      timeoutSeconds: 3600,
      retry: { backoffLimit: 2, restartPolicy: 'Never' },
      services: [{ name: 'train', image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime', command: ['python', 'train.py'], args: ['--lora', '--epochs', '3'], env: { HF_TOKEN: { secret: 'hf-token' } } }],
    },
    null,
    2,
  )}\n`,
  [SAMPLE_SPEC_FILE]: `${JSON.stringify(
    {
      kind: 'task',
      taskId: 1229831,
      name: 'qwen3-32b-serving',
      nodes: 3,
      resource: { gpu: 'RTX 4090', gpuCount: 1, region: 'beijing-jxq-p1' },
      services: [{ name: 'vllm', image: 'harbor.suanleme.cn/public-hub/vllm-openai:0.9.0', ports: [8000], env: { MODEL: 'Qwen/Qwen3-32B-AWQ', MAX_MODEL_LEN: '32768' } }],
    },
    null,
    2,
  )}\n`,
  [SAMPLE_PYTHON_FILE]: [
    SAMPLE_PYTHON_FIRST_LINE,
    '    """The first n Fibonacci numbers."""',
    '    numbers = [0, 1]',
    '    while len(numbers) < n:',
    '        numbers.append(numbers[-1] + numbers[-2])',
    '    return numbers[:n]',
    '',
    '',
    'if __name__ == "__main__":',
    SAMPLE_PYTHON_LAST_LINE,
    '',
  ].join('\n'),
  'train.ts': [
    '// A tiny training-loop stub to ask the chat about.',
    'export function learningRate(step: number, warmup = 100, base = 3e-4): number {',
    '  return step < warmup ? (base * (step + 1)) / warmup : base;',
    '}',
    '',
  ].join('\n'),
};

/** Writes the sample files into dir (created if missing) and returns dir. */
export function createSampleWorkspace(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A notebook for the kernel checks: one cell that prints. */
export const SAMPLE_NOTEBOOK_FILE = 'on-machine.ipynb';
files[SAMPLE_NOTEBOOK_FILE] = `${JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: { language_info: { name: 'python' } }, cells: [{ cell_type: 'code', id: 'c0', metadata: {}, execution_count: null, outputs: [], source: 'print("hello from the machine")' }] })}\n`;
