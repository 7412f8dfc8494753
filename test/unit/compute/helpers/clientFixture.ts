// Shared fixture of the compute client unit tests: keys made at test time, credentials, a task body,
// the platform's signature check and a local HTTP server with a client factory bound to it.
import * as crypto from 'node:crypto';
import { after, before, beforeEach } from 'node:test';
import type { ComputeClientOptions, ComputeCredentials, TaskCreateBody } from '../../../../src/core/compute/api';
import { createComputeClient } from '../../../../src/core/compute/client';
import { stringToSign } from '../../../../src/core/compute/signing';
import type { Logger } from '../../../../src/core/log';
import { startTestServer, type ReceivedRequest, type TestServer } from '../../http/helpers/testServer';
import { rsaPair } from './keys';

export const clientKeys = rsaPair(2048, 0);
export const platformKeys = rsaPair(2048, 1);
export const TOKEN = 'tok_live_0123456789abcdef';

export const rsaCredentials: ComputeCredentials = {
  mode: 'rsa',
  token: TOKEN,
  privateKey: clientKeys.pkcs8Pem,
  platformPublicKey: platformKeys.spkiPem,
};
export const tokenCredentials: ComputeCredentials = { mode: 'token', token: TOKEN };

export const createBody: TaskCreateBody = {
  task_name: '推理服务-1',
  points: 1,
  resources: [
    {
      mark: 'opaque-mark',
      region_name: '河北一区',
      resource: { device_name: 'H20 x 8', region: 'hebeif-1', gpu_name: 'H20', gpu_count: 8, gpu_memory: 786432, memory: 1572864, cpu_cores: 192 },
    },
  ],
  services: [{ service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 80 }] }],
};

/** What the platform checks: the signature over the exact target and body bytes received. */
export function signatureValid(req: ReceivedRequest): boolean {
  const header = (name: string): string => String(req.headers[name] ?? '');
  const text = stringToSign({ path: req.url, version: header('version'), timestamp: header('timestamp'), token: header('token'), body: req.body });
  return crypto.verify('sha256', Buffer.from(text, 'utf8'), clientKeys.publicKey, Buffer.from(header('sign_str'), 'base64'));
}

export function capturingLogger(lines: string[]): Logger {
  const push = (m: string): void => {
    lines.push(m);
  };
  return { trace: push, debug: push, info: push, warn: push, error: push };
}

export type ClientOverrides = Partial<ComputeClientOptions> & { creds?: ComputeCredentials };

/** Starts a local server for the enclosing describe block; returns accessors for it and a client factory. */
export function useClientServer(): { server: () => TestServer; client: (overrides?: ClientOverrides) => ReturnType<typeof createComputeClient> } {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());
  beforeEach(() => {
    if (server) server.requests.length = 0;
  });
  const current = (): TestServer => {
    if (!server) throw new Error('the test server is not started yet');
    return server;
  };
  const client = (overrides: ClientOverrides = {}) =>
    createComputeClient({
      baseUrl: current().url,
      credentials: async () => overrides.creds ?? rsaCredentials,
      retry: { baseDelayMs: 1, maxDelayMs: 2_000 },
      ...overrides,
    });
  return { server: current, client };
}
