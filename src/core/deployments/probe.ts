// One probe of a service URL (docs/deployments.md): `GET {url}/v1/models` through the model client, with
// the deployment's own key if the user set one and none otherwise, no retries and a short deadline. Also
// the client a chat uses for a deployment: the same base URL and key rule.

import { createModelClient } from '../inference/client';
import type { ModelClient, ModelClientOptions } from '../inference/api';
import type { Logger } from '../log';
import type { ProbeResult } from './discovery';

export const PROBE_TIMEOUT_MS = 8_000;

export interface DeploymentClientOptions {
  /** The task's service URL as the platform lists it (no /v1). */
  url: string;
  /** The key the user set for this deployment, if any: never the platform's model API key. */
  apiKey: () => Promise<string | undefined>;
  logger?: Logger;
  maxRetries?: number;
  firstTokenTimeoutMs?: number;
  idleTimeoutMs?: number;
}

export function deploymentApiBase(url: string): string {
  return `${url.replace(/\/+$/, '')}/v1`;
}

export function createDeploymentClient(options: DeploymentClientOptions): ModelClient {
  const clientOptions: ModelClientOptions = {
    apiBaseUrl: deploymentApiBase(options.url),
    apiKey: options.apiKey,
    keyOptional: true,
    maxRetries: options.maxRetries ?? 0,
  };
  if (options.logger) clientOptions.logger = options.logger;
  if (options.firstTokenTimeoutMs !== undefined) clientOptions.firstTokenTimeoutMs = options.firstTokenTimeoutMs;
  if (options.idleTimeoutMs !== undefined) clientOptions.idleTimeoutMs = options.idleTimeoutMs;
  return createModelClient(clientOptions);
}

export async function probeDeployment(url: string, apiKey: () => Promise<string | undefined>, signal?: AbortSignal): Promise<ProbeResult> {
  const client = createModelClient({
    apiBaseUrl: deploymentApiBase(url),
    apiKey,
    keyOptional: true,
    maxRetries: 0,
    connectTimeoutMs: PROBE_TIMEOUT_MS,
    requestDeadlineMs: PROBE_TIMEOUT_MS,
  });
  try {
    return { ok: true, models: await client.listModels(signal) };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
