// The spec validation worker (bundled as dist/specWorker.js): parses and validates spec texts off the
// extension host's thread, so a hostile file within the size cap never holds up the editor
// (docs/security.md). Messages come back recorded and are worded by the host (recordedMessages.ts).

import { parentPort } from 'node:worker_threads';
import { recordingMessages } from './recordedMessages';
import { validateSpecText } from './validate';
import type { WorkerAnswer, WorkerRequest } from './workerProtocol';

parentPort?.on('message', (request: WorkerRequest) => {
  const { messages, recording } = recordingMessages();
  let answer: WorkerAnswer;
  try {
    const validation = validateSpecText(request.text, request.format, messages);
    const value = validation.value as { kind?: unknown; taskId?: unknown } | undefined;
    answer = {
      id: request.id,
      diagnostics: validation.diagnostics,
      recording,
      valid: validation.spec !== undefined,
      ...(typeof value?.kind === 'string' ? { kind: value.kind.slice(0, 20) } : {}),
      ...(typeof value?.taskId === 'number' ? { taskId: value.taskId } : {}),
    };
  } catch (error) {
    answer = { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
