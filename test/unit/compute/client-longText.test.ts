// A node's log comes whole every time (docs/platform.md): the client keeps only its last TAIL_CHARS
// characters and says where they start (src/core/http/jsonAnswer.ts), so a 30 MiB log is never
// materialised on the host; the follower reads the same lines from the end as from the whole.

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { TAIL_CHARS } from '../../../src/core/http/jsonAnswer';
import { NodeLogTail } from '../../../src/core/jobs/nodeLogTail';
import { json, type TestServer } from '../http/helpers/testServer';
import { useClientServer } from './helpers/clientFixture';

describe('compute client: a long node log', () => {
  const fixture = useClientServer();
  const client = fixture.client;
  let server: TestServer;
  beforeEach(() => {
    server = fixture.server();
  });

  it('keeps the end of a log longer than TAIL_CHARS, with where it starts; the server cannot set that', async () => {
    const lines = Array.from({ length: Math.ceil((TAIL_CHARS * 1.5) / 24) }, (_, i) => `${String(i).padStart(8, '0')} step loss 0.12`);
    const logs = `${lines.join('\n')}\n`;
    server.handle((_req, res) => json(res, 200, { code: '0000', message: 'success', data: { logs, logsFrom: 3 } }));
    const answer = await client().call('node.log', { task_id: 1, point_id: 2, service_id: 3 });
    assert.equal(answer.logs.length, TAIL_CHARS);
    assert.equal(answer.logsFrom, logs.length - TAIL_CHARS);
    assert.ok(logs.endsWith(answer.logs));

    // Followed: the first read shows the last whole lines (no cut line), the next one only what came after.
    const tail = new NodeLogTail(client(), { task_id: 1, point_id: 2, service_id: 3 });
    const first = await tail.read();
    assert.equal(first.gap, true);
    assert.equal(first.lines.at(-1), lines.at(-1));
    assert.ok(first.lines.every((line) => line.length === lines[0]!.length), 'whole lines only');
    server.handle((_req, res) => json(res, 200, { code: '0000', message: 'success', data: { logs: `${logs}next 1\nnext 2\n` } }));
    assert.deepEqual(await tail.read(), { lines: ['next 1', 'next 2'], gap: false });
  });
});
