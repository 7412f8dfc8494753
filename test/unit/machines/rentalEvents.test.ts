// What rented machines' changes mean (core/machines/rentalEvents.ts): Serving once per machine (never
// on a first look), rental-end warnings once per rental end in the window, none with auto-renew on, and
// the next moment the editor's one timer waits for.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RentedMachine } from '../../../src/core/machines/machineState';
import { byRentalEnd, endingSoon, inWarningWindow, nextRentalMoment, nextWaitMoment, rentalEndKey, servingIn, waitingTooLong, waitKey } from '../../../src/core/machines/rentalEvents';

const HOUR = 3_600_000;

function machine(deviceId: number, fields: Partial<RentedMachine> = {}): RentedMachine {
  return { deviceId, status: 'Serving', billingType: 'Hour', gpuModel: 'A100', gpuCount: 8, startMs: 0, endMs: 3 * HOUR, autoRenew: undefined, renewPrice: undefined, price: undefined, innerIp: '10.0.0.1', publicIp: '127.0.0.1', group: undefined, ...fields };
}

describe('rented machines: Serving', () => {
  it('a Waiting machine that became Serving, or one first seen Serving after the first look, is news once', () => {
    const waiting = machine(1, { status: 'Waiting', startMs: undefined, endMs: undefined });
    const serving = machine(1);
    assert.deepEqual(servingIn({ first: false, added: [], changed: [{ before: waiting, after: serving }] }), [serving]);
    assert.deepEqual(servingIn({ first: false, added: [machine(2)], changed: [] }).map((m) => m.deviceId), [2]);
    assert.deepEqual(servingIn({ first: true, added: [machine(2)], changed: [] }), [], 'a first look only learns what exists');
    assert.deepEqual(servingIn({ first: false, added: [waiting], changed: [{ before: serving, after: { ...serving, autoRenew: 'Day' } }] }), [], 'no news: still Waiting, or was Serving already');
  });
});

describe('rented machines: rental-end warnings', () => {
  it('warns a Serving machine inside the window once per rental end, not before, not after it ended, not with auto-renew', () => {
    const ms = [machine(1, { endMs: 10 * HOUR }), machine(2, { endMs: 10 * HOUR, autoRenew: 'Hour' }), machine(3, { endMs: 9 * HOUR }), machine(4, { status: 'Waiting', endMs: undefined })];
    const warned = new Set<string>();
    assert.deepEqual(endingSoon(ms, 8 * HOUR, HOUR / 2, warned), [], 'outside the window');
    const due = endingSoon(ms, 9.5 * HOUR, HOUR, warned);
    assert.deepEqual(due.map((m) => m.deviceId), [1], 'machine 3 has ended; machine 2 renews itself');
    for (const m of due) warned.add(rentalEndKey(m));
    assert.deepEqual(endingSoon(ms, 9.6 * HOUR, HOUR, warned), [], 'once');
    const renewed = machine(1, { endMs: 11 * HOUR });
    assert.deepEqual(endingSoon([renewed], 10.5 * HOUR, HOUR, warned).map((m) => m.deviceId), [1], 'a new end is warned again');
    assert.deepEqual(endingSoon(ms, 9.5 * HOUR, 0, new Set()), [], '0 turns warnings off');
  });

  it('the next moment is the earliest window start or end still ahead', () => {
    const ms = [machine(1, { endMs: 10 * HOUR }), machine(2, { endMs: 5 * HOUR }), machine(3, { status: 'Waiting', endMs: undefined })];
    assert.equal(nextRentalMoment(ms, 0, HOUR), 4 * HOUR);
    assert.equal(nextRentalMoment(ms, 4 * HOUR, HOUR), 5 * HOUR, 'inside the window: the end');
    assert.equal(nextRentalMoment(ms, 5 * HOUR, HOUR), 9 * HOUR);
    assert.equal(nextRentalMoment(ms, 11 * HOUR, HOUR), undefined);
  });
});

describe('rented machines: the Spend page order and warning window', () => {
  it('orders by rental end (Waiting last, ties by device id) and marks the rentals the warning rule would warn about', () => {
    const ms = [machine(5, { status: 'Waiting', startMs: undefined, endMs: undefined }), machine(3, { endMs: 9 * HOUR }), machine(2, { endMs: 5 * HOUR }), machine(1, { endMs: 9 * HOUR })];
    assert.deepEqual(byRentalEnd(ms).map((m) => m.deviceId), [2, 1, 3, 5]);
    assert.deepEqual(ms.map((m) => m.deviceId), [5, 3, 2, 1], 'the store\'s array is left as it was');
    assert.equal(inWarningWindow(machine(1, { endMs: 9 * HOUR }), 8 * HOUR, 90 * 60_000), true);
    assert.equal(inWarningWindow(machine(1, { endMs: 9 * HOUR }), 8 * HOUR, 30 * 60_000), false, 'outside a shorter window');
    assert.equal(inWarningWindow(machine(1, { endMs: 9 * HOUR, autoRenew: 'Day' }), 8.9 * HOUR, HOUR), false, 'auto-renew on: never ending soon');
    assert.equal(inWarningWindow(machine(1, { endMs: 9 * HOUR }), 8.9 * HOUR, 0), false, 'warnings off');
  });
});

describe('rented machines: Waiting far too long', () => {
  it('notes when each wait began, tells each rental once past the limit, forgets a wait that ended, and says when to look next', () => {
    const since = new Map<string, number>();
    const warned = new Set<string>();
    const a = machine(1, { status: 'Waiting', startMs: undefined, endMs: undefined, orderDetailsId: 11 });
    const b = machine(2, { status: 'Waiting', startMs: undefined, endMs: undefined, orderDetailsId: 12 });
    assert.deepEqual(waitingTooLong([a, machine(3)], since, 0, HOUR, warned), []);
    assert.deepEqual([...since.keys()], [waitKey(a)], 'a Serving machine has no wait');
    assert.deepEqual(waitingTooLong([a, b], since, 0.5 * HOUR, HOUR, warned), []);
    assert.equal(nextWaitMoment(since, 0.5 * HOUR, HOUR, warned), HOUR, 'the first wait to reach the limit');
    const late = waitingTooLong([a, b], since, HOUR, HOUR, warned);
    assert.deepEqual(late.map((m) => m.deviceId), [1]);
    for (const m of late) warned.add(waitKey(m));
    assert.deepEqual(waitingTooLong([a, b], since, 1.2 * HOUR, HOUR, warned), [], 'told once');
    assert.equal(nextWaitMoment(since, 1.2 * HOUR, HOUR, warned), 1.5 * HOUR);
    // Device 1 served, then rented again: a new rental is a new wait.
    waitingTooLong([b], since, 1.3 * HOUR, HOUR, warned);
    assert.ok(!since.has(waitKey(a)), 'a wait that ended is forgotten');
    const again = { ...a, orderDetailsId: 21 };
    const stillB = waitingTooLong([again, b], since, 2.4 * HOUR, HOUR, warned);
    assert.deepEqual(stillB.map((m) => m.deviceId), [2], 'the new wait of device 1 has only begun');
    for (const m of stillB) warned.add(waitKey(m));
    assert.deepEqual(waitingTooLong([again, b], since, 3.5 * HOUR, HOUR, warned).map((m) => m.deviceId), [1], 'its new rental is told about in turn');
  });
});
