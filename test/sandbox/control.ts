// Control endpoints under /__sandbox/ for processes that cannot reach the Sandbox object (the
// extension host in a real VS Code, shell scripts): credentials, faults, clock, request log.
//
//   GET    /__sandbox/bootstrap  → SandboxBootstrap
//   POST   /__sandbox/faults     ← Fault JSON (400 naming the bad field)
//   DELETE /__sandbox/faults     → 204
//   POST   /__sandbox/clock      ← {offsetMs: number} → {offsetMs}
//   GET    /__sandbox/requests   → RecordedRequest[] (newest first)
//   POST   /__sandbox/nodes/crash ← {point_id, reason?, fail?} → {crashed: point_id} (restart count up)
//   POST   /__sandbox/jobs/spot-queue ← {count?: n (default 1), ms?: n (default 60000)} → {queued}: the next
//                                 n Spot jobs wait in the queue (schedule_status Queued) for ms
//   POST   /__sandbox/jobs/seed  ← {ended: count} → 201 {ids}: batch jobs that ended long ago (jobs/jobs.ts seedEnded)
//   POST   /__sandbox/tasks/seed ← {running?, pending?, paused?, ended?: count} → 201 TaskSeedResult
//                                 (a heavy account: compute/bulkTasks.ts; 400 naming the bad field)
//   GET    /__sandbox/nas/bucket  → the stand-in object store {supplier, endpoint, bucket, accessKey, secretKey}
//   GET    /__sandbox/nas/volume?storage_id= → {directory} (the volume's local directory, 404 when gone)
//   POST   /__sandbox/nas/sftp    ← {lifetimeMs} SFTP credentials issued from now on live this long
//   POST   /__sandbox/nas/expire  ← {storage_id} the volume's SFTP session expires now → {expired}
//   POST   /__sandbox/nas/faults  ← {kind: expire|drop|full, storage_id?, afterBytes} (fires during an upload)
//   POST   /__sandbox/nas/throttle ← {bytesPerSecond} each SFTP connection uploads at most this fast (0: no limit)
//   POST   /__sandbox/preheat     ← {enabled?, syncMs?, imagePullMs?} whether the account has applied for image preheat; how long
//                                    caching takes; how much longer a task starts when its image is not preheated in its region
//   POST   /__sandbox/nas/transfers ← {runningMs} S3 transfers created from now on run this long → {runningMs}
//   POST   /__sandbox/nas/transfers/hold ← {held: boolean} S3 transfers not yet ended stay Running at half their
//                                    bytes until released, new ones start there (nas/transfers.ts hold) → {held}
//   POST   /__sandbox/nas/mount   ← {storage_id, instance_id, instance_name, mount_path, unmount?}
//   POST   /__sandbox/nas/hostile ← {storage_id, folder, names: string[]} the SFTP server lists these extra
//                                    file names in `folder` (nas/hostileListing.ts); DELETE ends every hostile listing
//   POST   /__sandbox/deployments/load-ms ← {loadMs} → {loadMs} (model servers activated from now on)
//   POST   /__sandbox/jupyter/websockets ← {pass: boolean} Jupyter tasks' URLs pass WebSockets or refuse them
//   POST   /__sandbox/jupyter/cut ← {task_id} drops every connection to the task's Jupyter URL → {cut}
//   POST   /__sandbox/metal/product ← {device_id} lists one more single machine (an A100 × 8) → {device_id}
//   POST   /__sandbox/metal/host-key ← {device_id} the Serving machine shows a new host key → {rotated}
//   POST   /__sandbox/metal/drop ← {device_id} every SSH connection to the machine is cut (it stays up) → {dropped}
//   POST   /__sandbox/metal/end ← {device_id} the rental ends now (Finished; the machine and its sessions go) → {ended}
//   POST   /__sandbox/metal/group ← {network_id, device_ids} lists one more Ib network group → {network_id}
//   POST   /__sandbox/metal       ← {waitingMs?, product?} how long bare-metal orders placed from now on stay Waiting
//                                    (-1: never Serving); a single machine listed or changed (hostile text, a new price)

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxClock } from './clock';
import type { TaskSeedResult } from './compute/bulkTasks';
import type { NasControl, SftpFault } from './nas';
import type { PreheatControl } from './preheat/preheats';
import { parseFault } from './faults';
import { sendJson } from './http';
import type { JupyterControl } from './notebooks/jupyterControl';
import type { MetalControl, Product } from './metal';
import type { FaultQueue, RecordedRequest, SandboxBootstrap } from './types';

export interface ControlContext {
  bootstrap: SandboxBootstrap;
  faults: FaultQueue;
  clock: SandboxClock;
  requests: () => readonly RecordedRequest[];
  crashNode: (pointId: number, reason: string, fail: boolean) => void;
  queueSpot: (count: number, ms: number) => void;
  /** Adds tasks; throws TypeError/RangeError for bad counts. */
  seedTasks: (counts: unknown) => TaskSeedResult;
  /** Adds ended batch jobs; throws RangeError for a bad count. */
  seedEndedJobs: (count: number) => number[];
  nas: NasControl;
  preheat: PreheatControl;
  /** Throws RangeError for a bad value. */
  setModelLoadMs: (ms: number) => void;
  jupyter: JupyterControl;
  metal: MetalControl;
}

type ControlAction = (body: Buffer, res: ServerResponse, url: URL) => void;

function fieldsOf(body: Buffer): Record<string, unknown> {
  const value = parseJsonBody(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('expected a JSON object');
  return value as Record<string, unknown>;
}

function intField(fields: Record<string, unknown>, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new TypeError(`${name} must be an integer`);
  return value;
}

function metalActions(metal: MetalControl): Record<string, Partial<Record<string, ControlAction>>> {
  return {
    '/__sandbox/metal/product': {
      POST: (body, res) => {
        const deviceId = intField(fieldsOf(body), 'device_id');
        metal.addProduct({ device_id: deviceId });
        sendJson(res, 200, { device_id: deviceId });
      },
    },
    '/__sandbox/metal/group': {
      POST: (body, res) => {
        const fields = fieldsOf(body);
        const networkId = intField(fields, 'network_id');
        const ids = Array.isArray(fields.device_ids) ? fields.device_ids.filter((id): id is number => Number.isSafeInteger(id) && (id as number) > 0) : [];
        if (ids.length < 1 || ids.length > 16) throw new RangeError('device_ids: 1 to 16 device ids');
        metal.addGroup(networkId, ids);
        sendJson(res, 200, { network_id: networkId });
      },
    },
    '/__sandbox/metal/host-key': { POST: (body, res) => void metal.rotateHostKey(intField(fieldsOf(body), 'device_id')).then((rotated) => sendJson(res, 200, { rotated })) },
    '/__sandbox/metal/end': { POST: (body, res) => void metal.endRental(intField(fieldsOf(body), 'device_id')).then((ended) => sendJson(res, 200, { ended })) },
    '/__sandbox/metal/drop': {
      POST: (body, res) => {
        const machine = metal.machine(intField(fieldsOf(body), 'device_id'));
        void (machine ? machine.stop().then(() => machine.start()).then(() => true) : Promise.resolve(false)).then((dropped) => sendJson(res, 200, { dropped }));
      },
    },
  };
}

function nasActions(nas: NasControl): Record<string, Partial<Record<string, ControlAction>>> {
  return {
    '/__sandbox/nas/bucket': { GET: (_body, res) => sendJson(res, 200, nas.bucket) },
    '/__sandbox/nas/volume': {
      GET: (_body, res, url) => {
        const directory = nas.volumeDirectory(Number(url.searchParams.get('storage_id')));
        if (directory) sendJson(res, 200, { directory });
        else sendJson(res, 404, { error: 'no such volume' });
      },
    },
    '/__sandbox/nas/sftp': {
      POST: (body, res) => {
        const lifetimeMs = intField(fieldsOf(body), 'lifetimeMs');
        nas.setSessionLifetime(lifetimeMs);
        sendJson(res, 200, { lifetimeMs });
      },
    },
    '/__sandbox/nas/expire': { POST: (body, res) => sendJson(res, 200, { expired: nas.expireSession(intField(fieldsOf(body), 'storage_id')) }) },
    '/__sandbox/nas/faults': {
      POST: (body, res) => {
        const fields = fieldsOf(body);
        const kind = fields.kind;
        if (kind !== 'expire' && kind !== 'drop' && kind !== 'full') throw new TypeError('kind must be expire, drop or full');
        const fault: SftpFault = { kind, afterBytes: intField(fields, 'afterBytes'), ...(fields.storage_id === undefined ? {} : { storageId: intField(fields, 'storage_id') }) };
        nas.injectSftpFault(fault);
        sendJson(res, 201, { injected: fault });
      },
    },
    '/__sandbox/nas/hostile': {
      POST: (body, res) => {
        const fields = fieldsOf(body);
        const { folder, names } = fields;
        if (typeof folder !== 'string' || !Array.isArray(names) || !names.every((name) => typeof name === 'string')) throw new TypeError('folder must be a string and names an array of strings');
        nas.addHostileListing({ kind: 'entries', storageId: intField(fields, 'storage_id'), folder, entries: (names as string[]).map((name) => ({ name, type: 'file' })) });
        sendJson(res, 201, { listed: names.length });
      },
      DELETE: (_body, res) => {
        nas.clearHostileListings();
        sendJson(res, 200, { cleared: true });
      },
    },
    '/__sandbox/nas/transfers': {
      POST: (body, res) => {
        const runningMs = intField(fieldsOf(body), 'runningMs');
        nas.setTransferRunningMs(runningMs);
        sendJson(res, 200, { runningMs });
      },
    },
    '/__sandbox/nas/transfers/hold': {
      POST: (body, res) => {
        const { held } = fieldsOf(body);
        if (typeof held !== 'boolean') throw new TypeError('held must be true or false');
        nas.holdTransfers(held);
        sendJson(res, 200, { held });
      },
    },
    '/__sandbox/nas/throttle': {
      POST: (body, res) => {
        const bytesPerSecond = intField(fieldsOf(body), 'bytesPerSecond');
        nas.throttleUploads(bytesPerSecond);
        sendJson(res, 200, { bytesPerSecond });
      },
    },
    '/__sandbox/nas/mount': {
      POST: (body, res) => {
        const fields = fieldsOf(body);
        const storageId = intField(fields, 'storage_id');
        const instanceId = intField(fields, 'instance_id');
        try {
          if (fields.unmount === true) nas.unmount(storageId, instanceId);
          else
            nas.mount(storageId, {
              instance_id: instanceId,
              instance_name: String(fields.instance_name ?? `task-${instanceId}`).slice(0, 64),
              instance_type: 'deployment',
              mount_path: String(fields.mount_path ?? '/data').slice(0, 200),
            });
        } catch (error) {
          throw new RangeError(error instanceof Error ? error.message : String(error));
        }
        sendJson(res, 200, { storage_id: storageId });
      },
    },
  };
}

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
    '/__sandbox/jobs/spot-queue': {
      POST: (body, res) => {
        const request = parseJsonBody(body);
        const fields = typeof request === 'object' && request !== null ? (request as Record<string, unknown>) : {};
        const count = fields.count ?? 1;
        const ms = fields.ms ?? 60_000;
        if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw new TypeError('count must be a non-negative integer');
        if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) throw new TypeError('ms must be a non-negative integer');
        context.queueSpot(count, ms);
        sendJson(res, 200, { queued: count, ms });
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
    '/__sandbox/jupyter/websockets': {
      POST: (body, res) => {
        const pass = fieldsOf(body)['pass'];
        if (typeof pass !== 'boolean') throw new TypeError('pass must be a boolean');
        context.jupyter.setWebSockets(pass);
        sendJson(res, 200, { pass });
      },
    },
    '/__sandbox/jupyter/cut': { POST: (body, res) => sendJson(res, 200, { cut: context.jupyter.cutConnections(intField(fieldsOf(body), 'task_id')) }) },
    '/__sandbox/tasks/seed': { POST: (body, res) => sendJson(res, 201, context.seedTasks(parseJsonBody(body))) },
    '/__sandbox/jobs/seed': { POST: (body, res) => sendJson(res, 201, { ids: context.seedEndedJobs(intField(fieldsOf(body), 'ended')) }) },
    ...nasActions(context.nas),
    ...metalActions(context.metal),
    '/__sandbox/preheat': {
      POST: (body, res) => {
        const fields = fieldsOf(body);
        if (fields.enabled !== undefined && typeof fields.enabled !== 'boolean') throw new TypeError('enabled must be true or false');
        if (typeof fields.enabled === 'boolean') context.preheat.setEnabled(fields.enabled);
        if (fields.syncMs !== undefined) context.preheat.setSyncMs(intField(fields, 'syncMs'));
        if (fields.imagePullMs !== undefined) context.preheat.setImagePullMs(intField(fields, 'imagePullMs'));
        sendJson(res, 200, { enabled: fields.enabled, syncMs: fields.syncMs });
      },
    },
    '/__sandbox/metal': {
      POST: (body, res) => {
        const fields = fieldsOf(body);
        if (fields.waitingMs !== undefined) {
          const ms = intField(fields, 'waitingMs');
          context.metal.setWaitingMs(ms < 0 ? Number.POSITIVE_INFINITY : ms);
        }
        if (fields.product !== undefined) {
          const product = fields.product as Partial<Product> & { device_id: number };
          if (typeof product !== 'object' || product === null || !Number.isSafeInteger(product.device_id)) throw new TypeError('product.device_id must be an integer');
          context.metal.addProduct(product);
        }
        sendJson(res, 200, { ok: true });
      },
    },
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
      action(body, res, url);
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
