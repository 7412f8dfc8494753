// Storage sizes and usage as a person reads them, and the key pair typed into one box.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes, formatUsage, splitKeyPair } from '../../../src/vscode/storage/storageValues';

describe('storage values', () => {
  it('formats bytes in binary units', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1 KB');
    assert.equal(formatBytes(5368709120), '5 GB');
    assert.equal(formatBytes(5905580032), '5.5 GB');
    assert.equal(formatBytes(412316860416), '384 GB');
    assert.equal(formatBytes(1099511627776), '1 TB');
    assert.equal(formatBytes(Number.NaN), '0 B');
  });

  it('shows usage against size with a percentage', () => {
    assert.equal(formatUsage(412316860416, 1099511627776), '384 GB / 1 TB (38%)');
    assert.equal(formatUsage(0, 536870912000), '0 B / 500 GB (0%)');
    assert.equal(formatUsage(undefined, 536870912000), '0 B / 500 GB');
    assert.equal(formatUsage(5368709120, null), '5 GB used');
    assert.equal(formatUsage(undefined, undefined), undefined);
    assert.equal(formatUsage('12', 'x'), undefined, 'server text that is not a number is not shown as a size');
    assert.equal(formatUsage(2e12, 1e12), '1.8 TB / 931 GB (100%)', 'over-use is capped at 100%');
  });

  it('splits the access and secret key typed into one box', () => {
    assert.deepEqual(splitKeyPair('AKIDEXAMPLE wJal/rXUtn+FEMI'), { accessKey: 'AKIDEXAMPLE', secretKey: 'wJal/rXUtn+FEMI' });
    assert.deepEqual(splitKeyPair(' AK:SK '), { accessKey: 'AK', secretKey: 'SK' });
    assert.deepEqual(splitKeyPair('AK,SK'), { accessKey: 'AK', secretKey: 'SK' });
    assert.deepEqual(splitKeyPair('AK\nSK'), { accessKey: 'AK', secretKey: 'SK' });
    assert.equal(splitKeyPair(''), 'empty');
    assert.equal(splitKeyPair('ONLYONE'), 'one');
    assert.equal(splitKeyPair('A B C'), 'many');
  });
});
