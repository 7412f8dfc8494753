// The group run's rank-0 grace as a setting (core/machines/rankZeroGrace.ts, docs/machines.md "Network
// groups"): seconds clamped to 0–3600, anything that is not a number the default 20 s, and the manifest
// declaring the same default and bounds with a description in both languages.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RANK_ZERO_GRACE_MS, RANK_ZERO_GRACE_SECONDS, rankZeroGraceMs } from '../../../src/core/machines/rankZeroGrace';
import { RANK_ZERO_GRACE_MS as FROM_GROUP_RUN } from '../../../src/core/machines/groupRun';

const KEY = 'computeToolkit.machines.rankZeroGraceSeconds';

describe('rank-0 grace setting', () => {
  it('reads seconds as milliseconds, clamped; anything else is the default', () => {
    assert.equal(RANK_ZERO_GRACE_MS, 20_000);
    assert.equal(FROM_GROUP_RUN, RANK_ZERO_GRACE_MS, 'the group run falls back to the same default');
    assert.equal(rankZeroGraceMs(undefined), 20_000);
    assert.equal(rankZeroGraceMs(45), 45_000);
    assert.equal(rankZeroGraceMs(0), 0, '0 stops the others at once');
    assert.equal(rankZeroGraceMs(2.5), 2_500);
    assert.equal(rankZeroGraceMs(-5), 0);
    assert.equal(rankZeroGraceMs(10 ** 12), 3_600_000, 'at most an hour: a hand-edited value cannot make a timer overflow');
    for (const hostile of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '30', null, true, { seconds: 5 }, [5]]) {
      assert.equal(rankZeroGraceMs(hostile), 20_000, String(hostile));
    }
  });

  it('is declared in the manifest with the same default and bounds, described in English and 简体中文', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { configuration: { properties: Record<string, { type: string; default: number; minimum: number; maximum: number; markdownDescription: string }> } } };
    const setting = manifest.contributes.configuration.properties[KEY];
    assert.ok(setting, `${KEY} is contributed`);
    assert.deepEqual([setting.type, setting.default, setting.minimum, setting.maximum], ['integer', RANK_ZERO_GRACE_SECONDS.default, RANK_ZERO_GRACE_SECONDS.min, RANK_ZERO_GRACE_SECONDS.max]);
    const key = /^%(.+)%$/.exec(setting.markdownDescription)?.[1];
    assert.ok(key);
    for (const file of ['package.nls.json', 'package.nls.zh-cn.json']) {
      const text = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)[key];
      assert.ok(text && /0–3600/.test(text), `${file}: ${text}`);
    }
  });
});
