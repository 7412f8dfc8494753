// The chat export in linear time (apart from conversationExport.test.ts so the before-stop hook, which
// re-runs the timing-ratio files under CPU burners, does not also run its markdown-it property).
import { describe, it } from 'node:test';
import { conversationToMarkdown, titleFrom } from '../../../src/shared/conversationMarkdown';
import { assertLinearTime } from '../../helpers/linearTime';

const settings = { model: 'm/x', systemPrompt: '', temperature: 0.5, maxTokens: 10 };
const at = new Date('2026-01-01T00:00:00Z');

describe('chat export runs in linear time', () => {
  const exportOf = (content: string): string =>
    conversationToMarkdown({ title: content.slice(0, 100), settings, turns: [{ id: '1', role: 'assistant', content, status: 'complete', createdAt: 1 }] }, at);
  const shapes: Record<string, (n: number) => string> = {
    'a long whitespace run inside the text': (n) => `a${' \n'.repeat(n / 2)}b`,
    'newlines only': (n) => '\n'.repeat(n),
    'trailing whitespace': (n) => `x${' '.repeat(n)}`,
    'backtick runs': (n) => '`'.repeat(n),
  };
  for (const [name, input] of Object.entries(shapes)) {
    it(name, () => assertLinearTime(name, input, exportOf, { n: 4_000 }));
  }
  it('titleFrom on many lines', () => assertLinearTime('titleFrom', (n) => `${'#> '.repeat(n / 3)}\n`.repeat(4), (text) => titleFrom(text), { n: 4_000 }));
});
