// Interface A end to end: fault injection, routing (404/405), authentication, body decoding and
// decryption, the operation, and the envelope. Returns the outcome the request log records.

import type { KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxClock } from '../clock';
import type { FaultQueue } from '../types';
import { Authenticator, type KeyRecord } from './auth';
import type { Catalog } from './catalog';
import { SUCCESS_CODE, SandboxFailure } from './codes';
import { sendEnvelope, type EnvelopeField } from './envelope';
import { answerComputeFault } from './faultResponses';
import { parseRequestBody } from './requestBody';
import { moneyRoutes } from './moneyRoutes';
import { computeRoutes, type Route } from './routes';
import { TaskStore } from './tasks';
import type { JobStore } from '../jobs/jobs';
import { jobRoutes } from '../jobs/routes';

export interface ComputeHandlerOptions {
  keys: ReadonlyMap<string, KeyRecord>;
  platformPrivateKey: KeyObject;
  clock: SandboxClock;
  faults: FaultQueue;
  envelopeField: EnvelopeField;
  catalog: Catalog;
  tasks: TaskStore;
  jobs: JobStore;
  /** Routes of other areas served through the same authentication and envelope (NAS). */
  extraRoutes?: readonly Route[];
}

export type ComputeHandler = (req: IncomingMessage, res: ServerResponse, url: URL, rawBody: Buffer) => Promise<string>;

export function createComputeHandler(options: ComputeHandlerOptions): ComputeHandler {
  const authenticator = new Authenticator(options.keys, options.clock.now);
  const routes = [
    ...computeRoutes(options.catalog, options.tasks, options.jobs),
    ...moneyRoutes(options.catalog, options.tasks, options.clock),
    ...jobRoutes(options.catalog, options.jobs),
    ...(options.extraRoutes ?? []),
  ];

  return async (req, res, url, rawBody) => {
    // Matched against the path with its query, so a test can aim a one-shot fault at its own request
    // rather than at the extension's background calls to the same path.
    const fault = options.faults.take('compute', url.pathname + url.search);
    if (fault) {
      const outcome = await answerComputeFault(fault, res, options.envelopeField);
      if (outcome !== undefined) return outcome;
    }
    try {
      const route = findRoute(routes, req.method ?? 'GET', url.pathname);
      const auth = authenticator.authenticate({ headers: req.headers, rawPathWithQuery: req.url ?? '/', rawBody });
      if (auth.mode === 'token' && route.encryption === 'required') {
        throw new SandboxFailure('C007', 'this operation needs an encrypted body, which token-mode keys cannot send: use an RSA-mode key');
      }
      const body =
        route.method === 'POST'
          ? parseRequestBody({
              encryption: route.encryption,
              mode: auth.mode,
              contentType: req.headers['content-type'],
              rawBody,
              platformPrivateKey: options.platformPrivateKey,
              ...(route.encryptedMediaTypes ? { encryptedMediaTypes: route.encryptedMediaTypes } : {}),
            })
          : {};
      const data: unknown = await route.handle({ query: url.searchParams, body });
      sendEnvelope(res, options.envelopeField, { status: 200, code: SUCCESS_CODE, message: 'success', data });
      return SUCCESS_CODE;
    } catch (error) {
      if (!(error instanceof SandboxFailure)) throw error;
      sendEnvelope(res, options.envelopeField, {
        status: error.httpStatus,
        code: error.code,
        message: error.message,
        data: null,
        headers: error.headers,
      });
      return error.code;
    }
  };
}

function findRoute(routes: readonly Route[], method: string, path: string): Route {
  const onPath = routes.filter((route) => route.path === path);
  const route = onPath.find((candidate) => candidate.method === method);
  if (route) return route;
  if (onPath.length === 0) throw new SandboxFailure('404', `no such path: ${path}`, 404);
  const allowed = onPath.map((candidate) => candidate.method).join(', ');
  throw new SandboxFailure('405', `method ${method} not allowed for ${path} (allowed: ${allowed})`, 405, { allow: allowed });
}
