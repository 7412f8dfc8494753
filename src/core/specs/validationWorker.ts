// The spec validation worker (bundled as dist/specWorker.js): parses and validates spec texts off the
// extension host's thread, so a hostile file within the size cap never holds up the editor
// (docs/security.md). Messages come back recorded and are worded by the host (recordedMessages.ts).

import { parentPort } from 'node:worker_threads';
import { recordingMessages } from './recordedMessages';
import { validateSpecText } from './validate';
import type { WorkerAnswer, WorkerRequest } from './workerProtocol';

/** The images the spec's services run (what a Preheat lens offers to cache): at most 8, each bounded. */
function specImages(services: unknown): string[] {
  if (!Array.isArray(services)) return [];
  const images = services.slice(0, 8).flatMap((service) => {
    const image = (service as { image?: unknown } | null)?.image;
    return typeof image === 'string' && image.length > 0 && image.length <= 512 ? [image] : [];
  });
  return [...new Set(images)];
}

parentPort?.on('message', (request: WorkerRequest) => {
  const { messages, recording } = recordingMessages();
  let answer: WorkerAnswer;
  try {
    const validation = validateSpecText(request.text, request.format, messages);
    const value = validation.value as { kind?: unknown; taskId?: unknown; services?: unknown; resource?: unknown } | undefined;
    const images = specImages(value?.services);
    answer = {
      id: request.id,
      diagnostics: validation.diagnostics,
      recording,
      valid: validation.spec !== undefined,
      ...(typeof value?.kind === 'string' ? { kind: value.kind.slice(0, 20) } : {}),
      ...(typeof value?.taskId === 'number' ? { taskId: value.taskId } : {}),
      ...(images.length > 0 ? { images } : {}),
      ...(typeof (value?.resource as { region?: unknown } | undefined)?.region === 'string' ? { region: ((value?.resource as { region: string }).region).slice(0, 100) } : {}),
    };
  } catch (error) {
    answer = { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
