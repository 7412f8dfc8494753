// NAS units and small rules: bytes → GiB, used_size −1, ¥/GB/month, Beijing times, sftp_url parsing,
// the existing-file policy and volume names.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keepsExisting, parseSftpUrl, volumeNameProblem } from '../../../src/core/nas';
import { BYTES_PER_GIB, formatGiB, knownUsedBytes, monthlyPriceYuan, parseNasTime } from '../../../src/core/nas/units';
import { ProgressMeter } from '../../../src/core/nas/progress';

describe('NAS units', () => {
  it('shows bytes as GiB and never reads used_size −1 as zero', () => {
    assert.equal(formatGiB(50 * BYTES_PER_GIB), '50');
    assert.equal(formatGiB(1.5 * BYTES_PER_GIB), '1.5');
    assert.equal(knownUsedBytes(-1), undefined);
    assert.equal(knownUsedBytes(0), 0);
  });

  it('prices a volume per month from display_unit_price (yuan/GB/month, GB read as GiB)', () => {
    assert.equal(monthlyPriceYuan(100 * BYTES_PER_GIB, '0.36'), 36);
    assert.equal(monthlyPriceYuan(BYTES_PER_GIB, 'n/a'), undefined);
  });

  it('reads the platform time as Beijing time', () => {
    assert.equal(parseNasTime('2026-07-09 12:00:00'), Date.UTC(2026, 6, 9, 4, 0, 0));
    assert.equal(parseNasTime('2026-07-09T12:00:00Z'), undefined);
    assert.equal(parseNasTime(null), undefined);
  });

  it('parses sftp_url host:port and refuses anything else', () => {
    assert.deepEqual(parseSftpUrl('sftp.example.com:2222'), { host: 'sftp.example.com', port: 2222 });
    assert.deepEqual(parseSftpUrl('sftp.example.com'), { host: 'sftp.example.com', port: 22 });
    assert.throws(() => parseSftpUrl('http://x/y?z'));
    assert.throws(() => parseSftpUrl('host:99999'));
  });

  it('decides existing files by policy, comparing whole seconds', () => {
    assert.equal(keepsExisting('skip', 2000, 1000), true);
    assert.equal(keepsExisting('overwrite', 0, 5000), false);
    assert.equal(keepsExisting('newer', 2500, 2100), true, 'same second: not newer');
    assert.equal(keepsExisting('newer', 3000, 2100), false);
  });

  it('checks volume names as the platform does (1–32 characters after trimming)', () => {
    assert.equal(volumeNameProblem('  '), 'empty');
    assert.equal(volumeNameProblem('数'.repeat(32)), undefined);
    assert.equal(volumeNameProblem('a'.repeat(33)), 'too-long');
    // A volume's name also names a local folder (a download of its root): no dots-only names, separators or controls.
    for (const dots of ['.', '..', ' .. ', '...']) assert.equal(volumeNameProblem(dots), 'dots', dots);
    for (const bad of ['a/b', '/', 'a\\b', 'a\u0000b', 'esc\u001b[2J', 'c1\u009b2J', 'del\u007f']) assert.equal(volumeNameProblem(bad), 'characters', JSON.stringify(bad));
    for (const good of ['训练', '实验', 'proj.a', '..x', 'a b']) assert.equal(volumeNameProblem(good), undefined, good);
  });

  it('measures rate and time left from the recent window', () => {
    let now = 0;
    const seen: number[] = [];
    const meter = new ProgressMeter(1000, 1, (p) => seen.push(p.bytes), () => now);
    now = 1000;
    meter.add(100);
    now = 2000;
    meter.add(100);
    const snapshot = meter.snapshot();
    assert.equal(snapshot.bytes, 200);
    assert.equal(Math.round(snapshot.bytesPerSecond), 100);
    assert.equal(Math.round(snapshot.secondsLeft ?? -1), 8);
    meter.takeBack(50);
    assert.equal(meter.done, 150);
    assert.ok(seen.length >= 1);
  });
});
