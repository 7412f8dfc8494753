// The chat models of the active profile: listed once, again on Refresh or a profile switch. A new listing
// aborts the one in flight (a stuck load never blocks Refresh), and a listing started for an earlier
// profile can neither stand in for the new profile's list nor overwrite it.

import { AbortedError, isAbort } from '../errors';
import type { Logger } from '../log';
import type { ModelClient } from '../inference/api';

export interface ModelListState {
  models: string[];
  loading: boolean;
  error: string | undefined;
}

export interface ModelListDeps {
  client(): Promise<ModelClient>;
  /** One line saying why listing failed (secrets redacted). */
  describeError(error: unknown): string;
  logger: Logger;
  changed(): void;
}

export class ModelList {
  private state: ModelListState = { models: [], loading: false, error: undefined };
  private request: { promise: Promise<string[]>; controller: AbortController } | undefined;
  private generation = 0;

  constructor(private readonly deps: ModelListDeps) {}

  get current(): ModelListState {
    return { ...this.state, models: [...this.state.models] };
  }

  /** The listed models; lists them when not known yet. */
  ensure(): Promise<string[]> {
    if (this.state.models.length > 0 || this.state.error) return Promise.resolve(this.state.models);
    return this.request?.promise ?? this.start();
  }

  /** Lists again, aborting a listing still in flight (Refresh). */
  refresh(): Promise<string[]> {
    this.abortCurrent(new AbortedError('Refreshed'));
    return this.start();
  }

  /** The profile changed: forget the list and list the new profile's models. */
  reset(): Promise<string[]> {
    this.abortCurrent(new AbortedError('The active profile changed'));
    this.state = { models: [], loading: false, error: undefined };
    this.deps.changed();
    return this.start();
  }

  dispose(): void {
    this.abortCurrent(new AbortedError('The chat is shutting down'));
  }

  private abortCurrent(reason: Error): void {
    this.generation++;
    this.request?.controller.abort(reason);
    this.request = undefined;
  }

  private start(): Promise<string[]> {
    const controller = new AbortController();
    const generation = this.generation;
    const request = {
      controller,
      promise: this.list(generation, controller.signal).finally(() => {
        if (this.request === request) this.request = undefined;
      }),
    };
    this.request = request;
    return request.promise;
  }

  private async list(generation: number, signal: AbortSignal): Promise<string[]> {
    this.state = { ...this.state, loading: true, error: undefined };
    this.deps.changed();
    // Superseded (refreshed or profile switched): the caller gets the newer listing's answer.
    const superseded = (): Promise<string[]> => this.request?.promise ?? Promise.resolve(this.current.models);
    try {
      const client = await this.deps.client();
      if (generation !== this.generation) return superseded();
      const models = (await client.listModels(signal)).filter((model) => model.chat).map((model) => model.id);
      if (generation !== this.generation) return superseded();
      this.state = { models, loading: false, error: models.length === 0 ? 'No chat models are listed for this profile.' : undefined };
    } catch (error) {
      if (generation !== this.generation) {
        this.deps.logger.debug(`Chat: dropped a superseded model listing (${isAbort(error) ? 'aborted' : 'failed'})`);
        return superseded();
      }
      const reason = this.deps.describeError(error);
      this.state = { models: [], loading: false, error: `Models unavailable: ${reason}` };
      this.deps.logger.warn(`Chat: listing models failed: ${reason}`);
    }
    this.deps.changed();
    return this.state.models;
  }
}
