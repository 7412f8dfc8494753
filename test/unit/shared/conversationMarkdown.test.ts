import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addUsage, conversationToMarkdown, sumUsage, titleFrom } from '../../../src/shared/conversationMarkdown';
import type { ChatTurn } from '../../../src/shared/protocol';

const turns: ChatTurn[] = [
  { id: '1', role: 'user', content: 'How do I list GPUs?', status: 'complete', createdAt: 1 },
  {
    id: '2',
    role: 'assistant',
    content: 'Use `nvidia-smi`.\n\n```bash\nnvidia-smi -L\n```\n',
    status: 'complete',
    model: 'qwen/qwen3-32b',
    usage: { prompt: 10, completion: 20, total: 30 },
    createdAt: 2,
  },
  { id: '3', role: 'user', content: 'And memory?', status: 'complete', notice: 'Selection truncated.', createdAt: 3 },
  { id: '4', role: 'assistant', content: 'Partial ans', status: 'stopped', model: 'qwen/qwen3-32b', createdAt: 4 },
  {
    id: '5',
    role: 'assistant',
    content: '',
    status: 'error',
    error: { kind: 'auth', message: 'The model API key was rejected (HTTP 401)', actions: ['setModelApiKey'] },
    createdAt: 5,
  },
];

describe('conversationToMarkdown', () => {
  const markdown = conversationToMarkdown(
    { title: 'GPU listing', settings: { model: 'qwen/qwen3-32b', systemPrompt: 'Be brief.', temperature: 0.7, maxTokens: 2048 }, turns },
    new Date('2026-01-02T03:04:05Z'),
  );

  it('has the title, metadata and system prompt', () => {
    assert.ok(markdown.startsWith('# GPU listing\n\n- Exported: 2026-01-02T03:04:05.000Z\n- Model: `qwen/qwen3-32b`\n'));
    assert.ok(markdown.includes('- Usage: 30 tokens (10 prompt + 20 completion)'));
    assert.ok(markdown.includes('## System\n\n```text\nBe brief.\n```\n'));
  });

  it('keeps every turn in order with code, notices, partial marks and errors', () => {
    const order = ['## User\n\nHow do I list GPUs?', 'Use `nvidia-smi`.\n\n```bash\nnvidia-smi -L\n```', '> Selection truncated.', 'Partial ans', '_(stopped by the user', '**Error (auth):**'];
    let at = 0;
    for (const part of order) {
      const found = markdown.indexOf(part, at);
      assert.ok(found >= at, `missing or out of order: ${part}`);
      at = found;
    }
    assert.ok(markdown.endsWith('\n') && !markdown.endsWith('\n\n'));
  });
});

describe('usage', () => {
  it('adds usage and skips replies without it', () => {
    assert.deepEqual(sumUsage(turns), { prompt: 10, completion: 20, total: 30 });
    assert.equal(sumUsage([]), undefined);
    assert.deepEqual(addUsage(undefined, { prompt: 1, completion: 2, total: 3 }), { prompt: 1, completion: 2, total: 3 });
  });
});

describe('titleFrom', () => {
  it('uses the first meaningful line, shortened', () => {
    assert.equal(titleFrom('\n\n## How do I   list GPUs?\nmore'), 'How do I list GPUs?');
    assert.equal(titleFrom('```python\nx=1\n```'), 'python');
    assert.equal(titleFrom('   '), 'New chat');
    assert.equal(titleFrom('x'.repeat(100), 20).length, 20);
  });
});
