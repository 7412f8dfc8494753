// Tool calling through the model client against the sandbox's tool model: the request's tools reach the
// server in the convention's shape, streamed tool_calls fragments become one complete call, the result goes
// back as a tool message and the model answers from it; the sandbox refuses a result for an unknown call.

process.env['SANDBOX_CHAT_DELTA_MS'] = '0';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createModelClient, ModelApiError, parseToolArguments, type ChatMessage, type ChatStreamEvent, type ChatTool } from '../../src/core/inference';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
const MODEL = 'sandbox/tools';
const tools: ChatTool[] = [
  { name: 'compute_get_task', description: 'Get one task', parameters: { type: 'object', properties: { task_id: { type: 'integer' } }, required: ['task_id'] } },
  { name: 'other_tool', description: 'Another', parameters: { type: 'object', properties: {} } },
];

const client = () => createModelClient({ apiBaseUrl: sandbox.modelApiBaseUrl, apiKey: async () => sandbox.credentials.modelApiKey });

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const all: ChatStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());

describe('model client tool calling against the sandbox', () => {
  it('streams a tool call assembled from fragments, then answers from the tool result', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Look at my task. /tool compute_get_task {"task_id": 1229831, "note": "中文"}' }];
    const stream = client().stream({ model: MODEL, messages, tools });
    const events = await collect(stream);
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.ok(call);
    assert.equal(call.name, 'compute_get_task');
    assert.ok(call.id.length > 0);
    assert.deepEqual(parseToolArguments(call), { task_id: 1229831, note: '中文' });
    const outcome = await stream.outcome;
    assert.equal(outcome.finishReason, 'tool_calls');
    assert.deepEqual(outcome.toolCalls, [call]);
    assert.equal(outcome.content, '');

    const followUp: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: 'Task 1229831 is Running.' },
    ];
    const answer = await client().stream({ model: MODEL, messages: followUp, tools }).outcome;
    assert.equal(answer.content, 'From the tool result: Task 1229831 is Running.');
    assert.equal(answer.toolCalls, undefined);
  });

  it('a call without arguments arrives with the arguments {}', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: '/tool other_tool' }];
    const stream = client().stream({ model: MODEL, messages, tools });
    const outcome = await stream.outcome;
    assert.deepEqual(outcome.toolCalls?.map((call) => [call.name, call.arguments]), [['other_tool', '{}']]);
  });

  it('asks for a tool the request does not offer: a plain answer, no call', async () => {
    const outcome = await client().stream({ model: MODEL, messages: [{ role: 'user', content: '/tool not_offered {}' }], tools }).outcome;
    assert.equal(outcome.toolCalls, undefined);
    assert.ok(outcome.content.length > 0);
  });

  it('the strict sandbox refuses a tool result that answers no call', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'call_nobody', content: 'orphan' },
    ];
    await assert.rejects(client().stream({ model: MODEL, messages, tools }).outcome, (error: unknown) => error instanceof ModelApiError && /tool_call_id/.test(error.message));
  });

  it('a tool name with a dot is refused locally, before anything is sent', async () => {
    const before = sandbox.requests.length;
    await assert.rejects(client().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'compute.stop', description: '', parameters: {} }] }).outcome, /not accepted by the model API/);
    assert.equal(sandbox.requests.length, before);
  });
});
