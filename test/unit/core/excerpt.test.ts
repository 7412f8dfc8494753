// Error excerpts over hostile server text: what they keep, and that they take linear time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyExcerpt } from '../../../src/core/excerpt';
import { assertLinearTime } from '../../helpers/linearTime';

describe('bodyExcerpt content', () => {
  it('drops scripts, styles and tags in any case, and collapses whitespace', () => {
    const page = '<HTML><Script type="x">var a = "<b>";</SCRIPT><style>p{}</Style>\n<h1>Bad   Gateway</h1>\t<p>nginx</p></html>';
    assert.equal(bodyExcerpt(page), 'Bad Gateway nginx');
  });
  it('keeps a stray < and <> as text, and an unclosed <script as text', () => {
    assert.equal(bodyExcerpt('a < b'), 'a < b');
    assert.equal(bodyExcerpt('1 <> 2'), '1 <> 2');
    assert.equal(bodyExcerpt('x <script no end'), 'x <script no end');
  });
  it('cuts long text with an ellipsis', () => {
    assert.equal(bodyExcerpt(`${'word '.repeat(100)}`, 12), 'word word wo…');
  });
});

describe('bodyExcerpt runs in linear time on adversarial pages', () => {
  // No visible text, so the excerpt never fills up and the whole input is scanned.
  const shapes: Record<string, (n: number) => string> = {
    'unclosed <': (n) => '<'.repeat(n),
    'unclosed <a': (n) => '<a'.repeat(n / 2),
    'unclosed <script': (n) => '<script'.repeat(n / 7),
    'unclosed <style': (n) => '<style '.repeat(n / 7),
    '<script with many </ but no </script': (n) => `<script>${'</x'.repeat(n / 3)}`,
    'whitespace runs': (n) => ' \n\t'.repeat(n / 3),
    'tags only': (n) => '<b></b>'.repeat(n / 7),
  };
  for (const [name, input] of Object.entries(shapes)) {
    it(name, () => assertLinearTime(name, input, (text) => bodyExcerpt(text), { n: 16_000 }));
  }
});
