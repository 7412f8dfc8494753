// Spec validation on a worker thread (validationWorker.ts): the host sends the text and awaits the
// diagnostics, its own turns stay short whatever the file holds (docs/security.md). One worker serves
// every spec file; it starts with the first check and is replaced if it fails.

import { Worker } from 'node:worker_threads';
import type { SpecMessages } from './messages';
import { replayMessage } from './recordedMessages';
import type { SpecFormat } from './types';
import type { SpecTextCheck, WorkerAnswer } from './workerProtocol';

interface Pending {
  messages: SpecMessages;
  resolve(check: SpecTextCheck): void;
  reject(error: Error): void;
}

export class WorkerValidator {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** `script`: the worker's file (dist/specWorker.js in the extension, the compiled validationWorker.js in tests). */
  constructor(private readonly script: string) {}

  validate(text: string, format: SpecFormat, messages: SpecMessages): Promise<SpecTextCheck> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<SpecTextCheck>((resolve, reject) => {
      this.pending.set(id, { messages, resolve, reject });
      // Referenced only while a check is awaited: an idle worker never keeps the process alive.
      worker.ref();
      worker.postMessage({ id, text, format });
    });
  }

  dispose(): void {
    this.fail(new Error('The spec validator was closed.'));
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (answer: WorkerAnswer) => this.answer(answer));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(new Error(`The spec validator stopped (exit code ${code}).`));
    });
    this.worker = worker;
    return worker;
  }

  private answer(answer: WorkerAnswer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('failure' in answer) {
      pending.reject(new Error(answer.failure));
      return;
    }
    const diagnostics = answer.diagnostics.map((diagnostic) => ({ ...diagnostic, message: replayMessage(diagnostic.message, answer.recording, pending.messages) }));
    pending.resolve({ diagnostics, valid: answer.valid, ...(answer.kind === undefined ? {} : { kind: answer.kind }), ...(answer.taskId === undefined ? {} : { taskId: answer.taskId }), ...(answer.images === undefined ? {} : { images: answer.images }), ...(answer.region === undefined ? {} : { region: answer.region }) });
  }

  private fail(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const pending of waiting) pending.reject(error);
  }
}
