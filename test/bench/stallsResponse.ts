// The stall benchmark's server answers (stalls.ts): a compute call whose answer is as large as the client
// accepts, or hostile in shape, read, parsed and checked the way every caller receives it (client.call),
// and a node log followed the way the job terminal reads it (NodeLogTail). The server runs in a worker, so
// its own work is not counted on this thread.

import { Worker } from 'node:worker_threads';
import { createComputeClient } from '../../src/core/compute/client';
import { NodeLogTail } from '../../src/core/jobs/nodeLogTail';

const SERVER = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
let body = Buffer.alloc(0);
parentPort.on('message', (next) => { body = Buffer.from(next); parentPort.postMessage('ready'); });
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => { response.writeHead(200, { 'content-type': 'application/json' }); response.end(body); });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

const MIB = 1024 * 1024;

function envelope(data: string): string {
  return `{"code":"0000","message":"ok","data":${data}}`;
}

/** `count` copies of `item` joined by commas, as one JSON array. */
function array(item: string, count: number): string {
  return `[${new Array<string>(count).fill(item).join(',')}]`;
}

function logLines(bytes: number): string {
  const line = '2026-11-29 01:02:03 step 1234 loss 0.1234 lr 0.0001 grad_norm 1.23 tokens/s 12345.6\n';
  return line.repeat(Math.floor(bytes / line.length));
}

/** Each case: a name, the body the server sends, and what the client does with it. */
type Case = [string, string, 'log' | 'tasks' | 'nodes'];

function cases(): Case[] {
  const task = '{"task_id":1,"task_name":"t","status":"Running","resources":[],"services":[]}';
  return [
    ['node log of 30 MiB (80-character lines), first read', envelope(JSON.stringify({ logs: logLines(30 * MIB) })), 'log'],
    ['node log of 30 MiB of \\u0001 escapes (one line)', envelope(`{"logs":"${'\\u0001'.repeat(5 * MIB)}"}`), 'log'],
    ['node log over the size cap (64 MiB, refused)', envelope(JSON.stringify({ logs: 'a'.repeat(64 * MIB) })), 'log'],
    ['task list page with 300,000 tasks (~24 MiB)', envelope(`{"count":300000,"results":${array(task, 300_000)}}`), 'tasks'],
    ['node list page with 2,000,000 empty objects (~6 MiB)', envelope(`{"count":1,"results":${array('{}', 2_000_000)}}`), 'nodes'],
    ['nesting 1,000,000 arrays deep (~2 MiB)', envelope(`${'['.repeat(MIB)}${']'.repeat(MIB)}`), 'tasks'],
  ];
}

type Measure = (name: string, run: () => Promise<unknown>) => Promise<void>;

async function serve(server: Worker, body: string): Promise<void> {
  const bytes = Buffer.from(body);
  server.postMessage(bytes, [bytes.buffer]);
  await new Promise((resolve) => server.once('message', resolve));
}

/**
 * `measure` runs each case warm: the first request of a process loads undici and starts the parse worker
 * whatever the answer, so it is measured once on its own line by `once` (not an input case).
 */
export async function responseStalls(measure: Measure, once: Measure): Promise<void> {
  const server = new Worker(SERVER, { eval: true });
  try {
    const port = await new Promise<number>((resolve) => server.once('message', resolve));
    const client = createComputeClient({ baseUrl: `http://127.0.0.1:${port}`, credentials: async () => ({ mode: 'token', token: 'tok_bench_0123456789abcdef' }) });
    await serve(server, envelope(JSON.stringify({ logs: 'x\n'.repeat(64 * 1024) })));
    await once('response: first request of this process (loads undici, starts the parse worker)', () =>
      new NodeLogTail(client, { task_id: 1, point_id: 1, service_id: 1 }).read(),
    );
    for (const [name, body, kind] of cases()) {
      await serve(server, body);
      const run = async (): Promise<unknown> => {
        if (kind === 'log') return new NodeLogTail(client, { task_id: 1, point_id: 1, service_id: 1 }).read();
        if (kind === 'nodes') return client.call('node.list', { task_id: 1 });
        return client.call('task.list', { type: 'deployment', status: 'Running' });
      };
      // A refused answer is part of the case (the cap, a wrong shape): only the turns it took count.
      await measure(`response: ${name}`, () => run().catch(() => undefined));
    }
  } finally {
    await server.terminate();
  }
}
