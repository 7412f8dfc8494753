// Control endpoints under /__sandbox/ for processes that cannot reach the Sandbox object (the
// extension host in a real VS Code, shell scripts): credentials, faults, clock, request log.
//
//   GET    /__sandbox/bootstrap  → SandboxBootstrap
//   POST   /__sandbox/faults     ← Fault JSON (400 naming the bad field)
//   DELETE /__sandbox/faults     → 204
//   POST   /__sandbox/clock      ← {offsetMs: number} → {offsetMs}
//   GET    /__sandbox/requests   → RecordedRequest[] (newest first)
//   POST   /__sandbox/nodes/crash ← {point_id, reason?, fail?} → {crashed: point_id} (restart count up)
//   POST   /__sandbox/tasks/seed ← {running?, pending?, paused?, ended?: count} → 201 TaskSeedResult
//                                 (a heavy account: compute/bulkTasks.ts; 400 naming the bad field)
//   POST   /__sandbox/deployments/load-ms ← {loadMs} → {loadMs} (model servers activated from now on)

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxClock } from './clock';
import type { TaskSeedResult } from './compute/bulkTasks';
import { parseFault } from './faults';
import { sendJson } from './http';
import type { FaultQueue, RecordedRequest, SandboxBootstrap } from './types';

export interface ControlContext {
  bootstrap: SandboxBootstrap;
  faults: FaultQueue;
  clock: SandboxClock;
  requests: () => readonly RecordedRequest[];
  crashNode: (pointId: number, reason: string, fail: boolean) => void;
  /** Adds tasks; throws TypeError/RangeError for bad counts. */
  seedTasks: (counts: unknown) => TaskSeedResult;
  /** Throws RangeError for a bad value. */
  setModelLoadMs: (ms: number) => void;
}

type ControlAction = (body: Buffer, res: ServerResponse) => void;

export function createControlHandler(context: ControlContext): (req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) => void {
  const actions: Record<string, Partial<Record<string, ControlAction>>> = {
    '/__sandbox/bootstrap': { GET: (_body, res) => sendJson(res, 200, context.bootstrap) },
    '/__sandbox/requests': { GET: (_body, res) => sendJson(res, 200, context.requests()) },
    '/__sandbox/faults': {
      POST: (body, res) => {
        const fault = parseFault(parseJsonBody(body));
        context.faults.inject(fault);
        sendJson(res, 201, { injected: fault });
      },
      DELETE: (_body, res) => {
        context.faults.clear();
        res.writeHead(204).end();
      },
    },
    '/__sandbox/nodes/crash': {
      POST: (body, res) => {
        const request = parseJsonBody(body);
        const fields = typeof request === 'object' && request !== null ? (request as Record<string, unknown>) : {};
        const pointId = fields.point_id;
        if (typeof pointId !== 'number' || !Number.isSafeInteger(pointId)) throw new TypeError('point_id must be an integer');
        const reason = typeof fields.reason === 'string' ? fields.reason.slice(0, 200) : 'OOMKilled';
        try {
          context.crashNode(pointId, reason, fields.fail === true);
        } catch (error) {
          throw new RangeError(error instanceof Error ? error.message : String(error));
        }
        sendJson(res, 200, { crashed: pointId });
      },
    },
    '/__sandbox/deployments/load-ms': {
      POST: (body, res) => {
        const request = parseJsonBody(body);
        const loadMs = typeof request === 'object' && request !== null ? (request as Record<string, unknown>).loadMs : undefined;
        if (typeof loadMs !== 'number') throw new TypeError('loadMs must be a number of milliseconds');
        context.setModelLoadMs(loadMs);
        sendJson(res, 200, { loadMs });
      },
    },
    '/__sandbox/tasks/seed': { POST: (body, res) => sendJson(res, 201, context.seedTasks(parseJsonBody(body))) },
    '/__sandbox/clock': {
      POST: (body, res) => {
        const request = parseJsonBody(body);
        const offsetMs = typeof request === 'object' && request !== null ? (request as Record<string, unknown>).offsetMs : undefined;
        if (typeof offsetMs !== 'number' || !Number.isFinite(offsetMs)) throw new TypeError('offsetMs must be a finite number of milliseconds');
        context.clock.setOffset(offsetMs);
        sendJson(res, 200, { offsetMs: context.clock.offsetMs });
      },
    },
  };

  return (req, res, url, body) => {
    const methods = actions[url.pathname];
    if (!methods) {
      sendJson(res, 404, { error: `no control endpoint ${url.pathname}` });
      return;
    }
    const action = methods[req.method ?? 'GET'];
    if (!action) {
      const allowed = Object.keys(methods).join(', ');
      sendJson(res, 405, { error: `use ${allowed} for ${url.pathname}` }, { allow: allowed });
      return;
    }
    try {
      action(body, res);
    } catch (error) {
      // Bad control input is the caller's mistake: say what was wrong instead of failing the server.
      if (!(error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError)) throw error;
      sendJson(res, 400, { error: error.message });
    }
  };
}

function parseJsonBody(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8')) as unknown;
}
