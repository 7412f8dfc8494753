// One duration formatter (core/duration.ts), worded in both languages: English through the core's own
// templates (the agent tools, the log) and the editor (ui/duration.ts), 简体中文 through the zh-cn bundle
// the same way the editor words a core key. Fails on the three hand-made formatters it replaced
// ("1h 00m" was English in a Chinese review) and on a number from a server that is not a duration.
import '../helpers/englishL10n';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { duration, durationEnglish, MAX_DURATION_DAYS, type DurationShape } from '../../../src/core/duration';
import { fillTemplate, wordText } from '../../../src/core/errors/messages';
import { durationText } from '../../../src/vscode/ui/duration';

const repoRoot = path.resolve(__dirname, '../../../..');
const chinese = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
const inChinese = (seconds: number, shape?: DurationShape): string => wordText(duration(seconds, shape), (template, args) => fillTemplate(chinese[template] ?? `UNTRANSLATED ${template}`, args));
const COUNTDOWN: DurationShape = { precision: 'minute', round: 'up' };
const HOUR = 3600;
const DAY = 86_400;

describe('durations: one formatter, both languages', () => {
  const cases: [number, DurationShape | undefined, string, string][] = [
    [0, undefined, '0 s', '0 秒'],
    [0.9, undefined, '0 s', '0 秒'],
    [42, undefined, '42 s', '42 秒'],
    [60, undefined, '1 min', '1 分钟'],
    [65, undefined, '1 min 05 s', '1 分 05 秒'],
    [HOUR, undefined, '1 h', '1 小时'],
    [HOUR + 59, undefined, '1 h', '1 小时'],
    [3725, undefined, '1 h 02 min', '1 小时 02 分'],
    [DAY, undefined, '1 d', '1 天'],
    [2 * DAY + 3 * HOUR + 59 * 60, undefined, '2 d 3 h', '2 天 3 小时'],
    [30, COUNTDOWN, '< 1 min', '不到 1 分钟'],
    [14 * 60 + 0.06, COUNTDOWN, '15 min', '15 分钟'],
    [125 * 60, COUNTDOWN, '2 h 05 min', '2 小时 05 分'],
    [59.6, { round: 'up' }, '1 min', '1 分钟'],
    [59.4, { round: 'nearest' }, '59 s', '59 秒'],
    [61, { precision: 'minute' }, '1 min', '1 分钟'],
  ];

  for (const [seconds, shape, english, zh] of cases) {
    it(`${seconds} s ${shape ? JSON.stringify(shape) : ''} → "${english}" / "${zh}"`, () => {
      assert.equal(durationEnglish(seconds, shape), english);
      assert.equal(durationText(seconds, shape), english, 'the editor words the same key');
      assert.equal(inChinese(seconds, shape), zh);
    });
  }

  it('exactly an hour in a job review reads in Chinese, never "1h 00m"', () => {
    assert.equal(inChinese(HOUR), '1 小时');
    assert.doesNotMatch(inChinese(3 * HOUR + 60), /[a-z]/i);
  });

  it('a number from a server that is no duration reads safely: negative as 0, NaN, ±Infinity and non-numbers as unknown, absurd sizes bounded', () => {
    assert.equal(durationEnglish(-5), '0 s');
    assert.equal(durationEnglish(-5, COUNTDOWN), '< 1 min', 'a countdown past due never reads negative');
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '90' as unknown as number, null as unknown as number, undefined as unknown as number]) {
      assert.equal(durationEnglish(bad), 'unknown time', String(bad));
      assert.equal(inChinese(bad), '时长未知', String(bad));
    }
    for (const huge of [1e300, Number.MAX_VALUE, (MAX_DURATION_DAYS + 1) * DAY]) {
      assert.equal(durationEnglish(huge), `over ${MAX_DURATION_DAYS} d`);
      assert.equal(inChinese(huge), `超过 ${MAX_DURATION_DAYS} 天`);
    }
    assert.equal(durationEnglish(MAX_DURATION_DAYS * DAY + 23 * HOUR), `${MAX_DURATION_DAYS} d 23 h`);
  });

  it('no other hand-made duration text is left in src (h/m/s units glued to a number, or "{0} s"/"{0} min" templates)', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && !file.endsWith(`${path.sep}errors${path.sep}messages.ts`)) {
          const text = fs.readFileSync(file, 'utf8');
          const pattern = /\$\{[^}]+\}(?:h|m|s|min)\b|'\{\d\} ?(?:s|min|h|d)(?: \{\d\} ?(?:s|min|h))?'|\{\d\} s left|\{\d\} min ago|idle \{\d\} min|timeout \{\d\} s/g;
          for (const match of text.matchAll(pattern)) offenders.push(`${path.relative(repoRoot, file)}: ${match[0]}`);
        }
      }
    };
    walk(path.join(repoRoot, 'src'));
    assert.deepEqual(offenders, []);
  });
});
