// Starts the benchmarks' sandbox (sandboxProcess.ts) in a child process; `stop` ends it.

import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { BenchSandbox } from './sandboxProcess';

/** `timings`: the sandbox's timings by name (OPTIONS in sandboxProcess.ts). */
export async function sandboxChild(timings = 'machines'): Promise<BenchSandbox & { stop: () => void }> {
  const child = fork(join(__dirname, 'sandboxProcess.js'), [timings], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<BenchSandbox>((resolve, reject) => {
    child.once('message', (message) => resolve(message as BenchSandbox));
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code})`)));
  });
  return { ...ready, stop: () => child.disconnect() };
}
