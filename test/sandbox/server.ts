// The strict local platform: one HTTP server on 127.0.0.1 serving interface A under /api,
// interface B under /v1 (./inference), control endpoints under /__sandbox and a stand-in console.
// Every key and token is generated at start; nothing secret is read from or written to disk.

import { generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createClock } from './clock';
import type { KeyRecord } from './compute/auth';
import { parseSeedCounts, seedBulkTasks } from './compute/bulkTasks';
import { buildCatalog } from './compute/catalog';
import { sendEnvelope, type EnvelopeField } from './compute/envelope';
import { createComputeHandler } from './compute/handler';
import { seedTasks } from './compute/seedTasks';
import { seededRandom } from './compute/random';
import { TaskStore } from './compute/tasks';
import { JobStore } from './jobs/jobs';
import { consolePage } from './consolePage';
import { createControlHandler } from './control';
import { ModelServers } from './deployments/modelServers';
import { JupyterServers } from './notebooks/jupyterServers';
import { combineServiceHosts } from './serviceHosts';
import { createFaultQueue } from './faults';
import { BodyTooLargeError, readBody, sendHtml, sendJson } from './http';
import { createInferenceHandler } from './inference';
import { createNasSandbox } from './nas';
import { createPreheatSandbox } from './preheat/preheats';
import { createMetalSandbox } from './metal';
import { RequestLog } from './requestLog';
import type { Sandbox, SandboxBootstrap, SandboxCredentials, SandboxOptions } from './types';

export type { Sandbox, SandboxBootstrap, SandboxCredentials, SandboxOptions } from './types';

const DEFAULT_PENDING_MS = 3000;
const DEFAULT_SEED = 20261101;
const LOOPBACK = '127.0.0.1';

const generateRsaKeyPair = promisify(generateKeyPair);

interface GeneratedKeys {
  platform: { privateKey: KeyObject; publicKey: KeyObject };
  client: { privateKey: KeyObject; publicKey: KeyObject };
  credentials: SandboxCredentials;
}

async function generateKeys(): Promise<GeneratedKeys> {
  const [platform, client] = await Promise.all([
    generateRsaKeyPair('rsa', { modulusLength: 2048 }),
    generateRsaKeyPair('rsa', { modulusLength: 2048 }),
  ]);
  const pem = (key: KeyObject, type: 'pkcs8' | 'spki'): string => key.export({ type, format: 'pem' }).toString();
  return {
    platform,
    client,
    credentials: {
      tokenMode: { token: `sbx-token-${randomBytes(16).toString('hex')}` },
      rsaMode: {
        token: `sbx-rsa-${randomBytes(16).toString('hex')}`,
        privateKeyPem: pem(client.privateKey, 'pkcs8'),
        publicKeyPem: pem(client.publicKey, 'spki'),
        platformPublicKeyPem: pem(platform.publicKey, 'spki'),
      },
      modelApiKey: `sk-sandbox-${randomBytes(24).toString('hex')}`,
    },
  };
}

/** Sixty days of ended tasks in the billing records, so spend has a history from the first start. */
function seedBillingHistory(catalog: ReturnType<typeof buildCatalog>, tasks: TaskStore, seed: number): void {
  const prices = [...catalog.marks.values()].map((mark) => mark.pricePerSecond).filter((price) => price > 0);
  tasks.usage.seedHistory(seededRandom(seed ^ 0x5eed), Date.now(), 60, prices, 1100001);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const envelopeField: EnvelopeField = options.envelopeField ?? 'message';
  const keys = await generateKeys();
  const { credentials } = keys;
  const clock = createClock();
  const faults = createFaultQueue();
  const requestLog = new RequestLog();

  const keyRecords = new Map<string, KeyRecord>([
    [credentials.tokenMode.token, { mode: 'token' }],
    [credentials.rsaMode.token, { mode: 'rsa', clientPublicKey: keys.client.publicKey }],
  ]);
  const catalog = buildCatalog(options.seed ?? DEFAULT_SEED);
  // Tasks that run vLLM serve the model API at their public URL (deployments/modelServerRule.ts).
  const modelServers = new ModelServers({ now: () => clock.realNow(), ...(options.modelLoadMs !== undefined ? { loadMs: options.modelLoadMs } : {}) });
  const nas = createNasSandbox(clock, options.nas);
  // Jupyter tasks run a real Jupyter server behind their public URL (notebooks/jupyterRule.ts).
  const jupyter = new JupyterServers({
    volumeDirectory: options.volumeDirectory ?? ((storageId) => nas.volumeDirectory(storageId)),
    ...(options.jupyterWebSockets !== undefined ? { webSockets: options.jupyterWebSockets } : {}),
  });
  const tasks = new TaskStore(clock, options.pendingMs ?? DEFAULT_PENDING_MS, combineServiceHosts([modelServers, jupyter]));
  seedTasks(catalog, tasks);
  seedBillingHistory(catalog, tasks, options.seed ?? DEFAULT_SEED);

  const metal = createMetalSandbox(clock, options.metal);
  tasks.checkMounts = (input) => nas.checkTaskMounts(input.resources[0]?.region_name ?? '', input.services);
  // A job's NAS mounts run in the volume's local directory (a job without one gets a temp directory).
  const jobPendingMs = options.jobPendingMs ?? Math.min(options.pendingMs ?? DEFAULT_PENDING_MS, 1000);
  const jobs = new JobStore(clock, jobPendingMs, options.volumeDirectory ?? ((storageId) => nas.volumeDirectory(storageId)));
  // Jobs mount NAS volumes by the same rules as tasks (docs/sandbox-rules.md); a test that brings its own
  // volume directories stands in for the NAS area, so its ids are not NAS volumes.
  if (!options.volumeDirectory) jobs.checkMounts = (input) => nas.checkTaskMounts(input.body.resources[0]?.region_name ?? '', input.body.services);
  const preheat = createPreheatSandbox(clock, new Set(catalog.marks.keys()), options.preheatPendingMs === undefined ? {} : { pendingMs: options.preheatPendingMs });
  // A task pulls each image no finished preheat cached in its region (off until imagePullMs is set).
  tasks.imagePullMs = (input) => Math.max(0, ...input.services.map((service) => preheat.pullMs(service.service_image, input.resources[0]?.region_name ?? '')));
  const compute = createComputeHandler({
    keys: keyRecords,
    platformPrivateKey: keys.platform.privateKey,
    clock,
    faults,
    envelopeField,
    catalog,
    tasks,
    jobs,
    extraRoutes: [...nas.routes, ...preheat.routes, ...metal.routes],
  });
  const inference = createInferenceHandler({ modelApiKey: credentials.modelApiKey, faults });

  // Filled in once the port is known; no request can arrive before listen() resolves.
  const listening: { bootstrap?: SandboxBootstrap; control?: ReturnType<typeof createControlHandler> } = {};

  const record = (req: IncomingMessage, body: Buffer, outcome: string): void =>
    requestLog.add({ method: req.method ?? 'GET', path: req.url ?? '/', headers: { ...req.headers }, body: body.toString('utf8'), outcome });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Clients measure their clock skew against this header, so it comes from the sandbox clock.
    res.setHeader('date', new Date(clock.now()).toUTCString());
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    const body = await readBody(req);
    const path = url.pathname;

    if (path === '/api' || path.startsWith('/api/')) {
      record(req, body, await compute(req, res, url, body));
    } else if (path === '/v1' || path.startsWith('/v1/')) {
      res.once('close', () => record(req, body, res.writableFinished ? String(res.statusCode) : 'reset'));
      const handled = await inference(req, res, url, body);
      if (!handled) sendJson(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error', code: 'not_found' } });
    } else if (path.startsWith('/__sandbox/') && listening.control) {
      listening.control(req, res, url, body);
    } else if ((path === '/' || path === '/console' || path.startsWith('/console/')) && listening.bootstrap) {
      sendHtml(res, 200, consolePage(path, listening.bootstrap.computeBaseUrl, listening.bootstrap.modelApiBaseUrl));
    } else {
      sendJson(res, 404, { error: `nothing at ${path}: interface A is under /api, interface B under /v1` });
    }
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof BodyTooLargeError) {
        sendJson(res, 413, { error: error.message }, { connection: 'close' });
        return;
      }
      // A client that hung up mid-request leaves nobody to answer; that is not a sandbox failure.
      if (req.socket.destroyed && !req.complete) return;
      // A bug in the sandbox: make it loud in the test output and answer instead of hanging.
      console.error('[sandbox] request failed:', error);
      if (res.headersSent) {
        res.destroy();
      } else {
        sendEnvelope(res, envelopeField, { status: 500, code: 'Z001', message: 'sandbox internal error', data: null });
      }
    });
  });

  // Idle keep-alive connections stay open (close() ends them): with Node's 5 s a client on a busy machine
  // sends on a pooled connection the server is closing at that moment, and reads ECONNRESET.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${LOOPBACK}:${port}`;
  const bootstrap: SandboxBootstrap = { computeBaseUrl: url, modelApiBaseUrl: `${url}/v1`, consoleUrl: `${url}/console`, credentials };
  listening.bootstrap = bootstrap;
  // Each seed call shuffles with its own seed, so repeated calls do not repeat one pattern.
  let seedCalls = 0;
  const seedHeavyAccount = (counts: unknown) => seedBulkTasks(catalog, tasks, parseSeedCounts(counts), (options.seed ?? DEFAULT_SEED) + ++seedCalls);
  const seedEndedJobs = (count: number): number[] => {
    const region = catalog.devices.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0 && candidate.price !== null);
    if (!region) throw new Error('the catalogue sells nothing to seed jobs with');
    const resource = { resource: { ...region.mark.resource }, region_name: region.region_name, mark: region.mark.mark, weight: 1 };
    return jobs.seedEnded(count, { resource, pricePerSecond: region.discount_price ?? region.price ?? 0 });
  };
  listening.control = createControlHandler({
    bootstrap,
    faults,
    clock,
    requests: () => requestLog.snapshot(),
    seedTasks: seedHeavyAccount,
    seedEndedJobs,
    crashNode: (pointId, reason, fail) => tasks.crashNode(pointId, reason, fail),
    queueSpot: (count, ms) => jobs.queueSpot(count, ms),
    nas,
    preheat,
    setModelLoadMs: (ms) => modelServers.setLoadMs(ms),
    jupyter,
    metal,
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    computeBaseUrl: bootstrap.computeBaseUrl,
    modelApiBaseUrl: bootstrap.modelApiBaseUrl,
    credentials,
    faults,
    get requests() {
      return requestLog.snapshot();
    },
    setClockOffset: (ms) => clock.setOffset(ms),
    crashNode: (pointId, options = {}) => tasks.crashNode(pointId, options.reason ?? 'OOMKilled', options.fail ?? false),
    seedTasks: seedHeavyAccount,
    seedEndedJobs,
    queueSpot: (count = 1, ms = 60_000) => jobs.queueSpot(count, ms),
    nas,
    preheat,
    metal,
    setModelLoadMs: (ms) => modelServers.setLoadMs(ms),
    modelServerPhase: (taskId) => modelServers.phase(taskId),
    finishModelLoad: (taskId) => modelServers.finishLoad(taskId),
    jupyter,
    close() {
      jobs.close();
      closing ??= Promise.all([
        new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          // Keep-alive sockets (and streams held open by a latency fault) would hold close() forever.
          server.closeAllConnections();
        }),
        nas.close(),
        metal.close(),
        modelServers.close(),
        jupyter.close(),
      ]).then(() => undefined);
      return closing;
    },
  };
}
