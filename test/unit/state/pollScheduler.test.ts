// The remote-state store and its per-profile poll scheduler on fake timers: what is listed, when,
// and what each poll reports. Delays are compared with the scheduler's own interval, never a clock.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Listing, StateChange, StateDefinition } from '../../../src/core/state/definition';
import { POLL_FLOOR_MS, PollScheduler } from '../../../src/core/state/pollScheduler';
import { FakeTime, flush } from '../../helpers/fakeTimers';

interface Item {
  id: number;
  state: 'moving' | 'resting';
  v?: number;
}

/** A fake platform: items, listing calls counted, optional failures and an incomplete read. */
function fakeKind(kind = 'items') {
  const platform = { items: new Map<number, Item>(), calls: 0, failNext: 0, incomplete: false };
  const definition: StateDefinition<Item, number, typeof platform> = {
    kind,
    key: (item) => item.id,
    list: async (source): Promise<Listing<Item>> => {
      source.calls++;
      if (source.failNext > 0) {
        source.failNext--;
        throw new Error('503');
      }
      const items = [...source.items.values()].map((item) => ({ ...item }));
      return source.incomplete ? { items: items.slice(0, 1), complete: false } : { items, complete: true };
    },
    atRest: (items) => items.every((item) => item.state === 'resting'),
    equal: (a, b) => a.state === b.state && a.v === b.v,
  };
  return { platform, definition };
}

const INTERVAL = 15_000;

function setup(options: { intervalMs?: number } = {}) {
  const time = new FakeTime();
  const { platform, definition } = fakeKind();
  const scheduler = new PollScheduler('p1', () => platform, { intervalMs: options.intervalMs ?? INTERVAL, unfocusedAfterMs: 5 * 60_000, unfocusedFactor: 4, maxBackoffMs: 240_000 }, {
    now: () => time.now,
    setTimer: time.setTimer,
    clearTimer: time.clearTimer,
  });
  const store = scheduler.store(definition);
  const changes: StateChange<Item>[] = [];
  store.onChange((change) => {
    changes.push(change);
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 50 && scheduler.busy; i++) await flush();
    await flush();
  };
  return { time, platform, scheduler, store, changes, settle };
}

describe('remote-state store', () => {
  it('knows when the listing behind its items started, not only when it finished', async () => {
    const { store } = setup();
    assert.equal(store.listedSince, undefined);
    await store.apply({ items: [{ id: 1, state: 'moving' }], complete: true }, 5_000, 2_000);
    assert.equal(store.updatedAt, 5_000);
    assert.equal(store.listedSince, 2_000, 'a task created at 3 s may be missing from it although it finished at 5 s');
  });

  it('reports added, changed and removed once per poll, and removes only after a complete listing', async () => {
    const { platform, scheduler, store, changes } = setup();
    platform.items.set(1, { id: 1, state: 'moving' });
    platform.items.set(2, { id: 2, state: 'moving' });
    await scheduler.refresh();
    assert.equal(changes.length, 1);
    assert.equal(changes[0]?.first, true);
    assert.deepEqual(changes[0]?.added.map((item) => item.id), [1, 2]);

    platform.items.set(2, { id: 2, state: 'moving', v: 1 });
    platform.items.set(3, { id: 3, state: 'moving' });
    platform.items.delete(1);
    await scheduler.refresh();
    const second = changes[1];
    assert.ok(second);
    assert.equal(second.first, false);
    assert.deepEqual(second.added.map((item) => item.id), [3]);
    assert.deepEqual(second.changed.map((entry) => entry.after.id), [2]);
    assert.deepEqual(second.removed.map((item) => item.id), [1]);

    // A capped read lists only item 2: nothing is removed, the unread items are kept.
    platform.incomplete = true;
    await scheduler.refresh();
    const third = changes[2];
    assert.ok(third);
    assert.equal(third.complete, false);
    assert.deepEqual(third.removed, []);
    assert.deepEqual(store.items.map((item) => item.id).sort(), [2, 3]);
  });

  it('tells view listeners before followers, and a listener failure reaches onError without stopping the rest', async () => {
    const { platform, scheduler, store } = setup();
    platform.items.set(1, { id: 1, state: 'moving' });
    const order: string[] = [];
    const errors: unknown[] = [];
    store.onError((error) => errors.push(error));
    store.onChange(() => {
      order.push('follower');
    });
    store.onChange(async () => {
      await flush();
      order.push('view');
      throw new Error('render failed');
    }, 'view');
    await scheduler.refresh();
    assert.deepEqual(order, ['view', 'follower']);
    assert.equal(errors.length, 1);
  });
});

describe('poll scheduler', () => {
  it('polls every interval while something moves, one listing per poll, and stops at rest until woken', async () => {
    const { time, platform, scheduler, settle } = setup();
    platform.items.set(1, { id: 1, state: 'moving' });
    scheduler.wake();
    await time.advance(0, settle);
    assert.equal(platform.calls, 1);
    await time.advance(6 * INTERVAL, settle);
    assert.equal(platform.calls, 7, 'one listing per interval');

    platform.items.set(1, { id: 1, state: 'resting' });
    await time.advance(INTERVAL, settle);
    const atRest = platform.calls;
    assert.equal(scheduler.atRest, true);
    await time.advance(240 * INTERVAL, settle);
    assert.equal(platform.calls, atRest, 'nothing sent while everything is at rest');
    assert.equal(time.pending, 0, 'no timer left');

    scheduler.wake();
    await time.advance(0, settle);
    assert.equal(platform.calls, atRest + 1, 'a wake takes one look');
    await time.advance(10 * INTERVAL, settle);
    assert.equal(platform.calls, atRest + 1, 'and goes quiet again');
  });

  it('runPlannedPoll runs the timer\'s planned poll now (only while something moves) and keeps the schedule after it', async () => {
    const { time, platform, scheduler, settle } = setup();
    platform.items.set(1, { id: 1, state: 'moving' });
    scheduler.wake();
    await time.advance(0, settle);
    assert.equal(platform.calls, 1);
    assert.equal(await scheduler.runPlannedPoll(), true, 'a poll was planned: it ran now');
    assert.equal(platform.calls, 2, 'without waiting for the interval');
    await time.advance(INTERVAL - 1, settle);
    assert.equal(platform.calls, 2, 'the next one is planned a whole interval after it');
    await time.advance(1, settle);
    assert.equal(platform.calls, 3);

    platform.items.set(1, { id: 1, state: 'resting' });
    await time.advance(INTERVAL, settle);
    const atRest = platform.calls;
    assert.equal(await scheduler.runPlannedPoll(), false, 'at rest nothing is planned');
    assert.equal(platform.calls, atRest, 'and nothing is polled');
  });

  it('never polls faster than the platform floor: wakes right after a poll wait for it, and the interval is raised to it', async () => {
    const { time, platform, scheduler, settle } = setup({ intervalMs: 1_000 });
    platform.items.set(1, { id: 1, state: 'moving' });
    scheduler.wake();
    await time.advance(0, settle);
    assert.equal(time.nextDelay, POLL_FLOOR_MS, 'a 1 s setting is raised to the floor');
    scheduler.wake();
    scheduler.wake();
    assert.equal(platform.calls, 1);
    assert.ok((time.nextDelay ?? 0) > 0, 'a wake right after a poll waits for the floor');
    await time.advance(POLL_FLOOR_MS, settle);
    assert.equal(platform.calls, 2, 'three wakes, one poll');
  });

  it('a wake during a poll polls once more after it (the change may postdate the listing)', async () => {
    const { time, platform, scheduler, settle } = setup();
    platform.items.set(1, { id: 1, state: 'resting' });
    const first = scheduler.refresh();
    scheduler.wake();
    await first;
    await settle();
    await time.advance(POLL_FLOOR_MS, settle);
    assert.equal(platform.calls, 2);
    await time.advance(20 * INTERVAL, settle);
    assert.equal(platform.calls, 2);
  });

  it('backs off on failures (doubling, capped), keeps the items, and returns to the interval after a success', async () => {
    const { time, platform, scheduler, store, settle } = setup();
    platform.items.set(1, { id: 1, state: 'moving' });
    await scheduler.refresh();
    platform.failNext = 10;
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      await time.advance(time.nextDelay ?? 0, settle);
      delays.push(time.nextDelay ?? 0);
    }
    assert.deepEqual(delays, [2 * INTERVAL, 4 * INTERVAL, 8 * INTERVAL, 16 * INTERVAL, 240_000, 240_000]);
    assert.ok(store.error instanceof Error);
    assert.equal(store.items.length, 1, 'items kept through failures');
    platform.failNext = 0;
    await time.advance(time.nextDelay ?? 0, settle);
    assert.equal(time.nextDelay, INTERVAL);
    assert.equal(store.error, undefined);
  });

  it('slows down once the window has been unfocused a while, and not before', async () => {
    const { time, platform, scheduler, settle } = setup();
    platform.items.set(1, { id: 1, state: 'moving' });
    await scheduler.refresh();
    scheduler.setFocused(false);
    assert.equal(scheduler.nextDelayMs(), INTERVAL);
    await time.advance(5 * 60_000, settle);
    assert.equal(scheduler.nextDelayMs(), 4 * INTERVAL);
    scheduler.setFocused(true);
    assert.equal(scheduler.nextDelayMs(), INTERVAL);
  });

  it('lists a kind at rest only on a wake, while another kind keeps moving', async () => {
    const time = new FakeTime();
    const a = fakeKind('a');
    const b = fakeKind('b');
    const source = { a: a.platform, b: b.platform };
    const scheduler = new PollScheduler('p1', () => source, { intervalMs: INTERVAL }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    scheduler.store({ ...a.definition, list: (s, signal) => a.definition.list(s.a, signal) });
    scheduler.store({ ...b.definition, list: (s, signal) => b.definition.list(s.b, signal) });
    a.platform.items.set(1, { id: 1, state: 'moving' });
    b.platform.items.set(1, { id: 1, state: 'resting' });
    await scheduler.refresh();
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 50 && scheduler.busy; i++) await flush();
    };
    await time.advance(5 * INTERVAL, settle);
    assert.equal(a.platform.calls, 6);
    assert.equal(b.platform.calls, 1, 'the resting kind costs nothing per interval');
    scheduler.wake();
    await time.advance(POLL_FLOOR_MS, settle);
    assert.equal(b.platform.calls, 2, 'a wake looks at every kind');
  });

  it('a kind whose listing fails backs off alone; the other kind keeps its interval', async () => {
    const time = new FakeTime();
    const a = fakeKind('a');
    const b = fakeKind('b');
    const source = { a: a.platform, b: b.platform };
    const scheduler = new PollScheduler('p1', () => source, { intervalMs: INTERVAL, maxBackoffMs: 240_000 }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    scheduler.store({ ...a.definition, list: (s, signal) => a.definition.list(s.a, signal) });
    const storeB = scheduler.store({ ...b.definition, list: (s, signal) => b.definition.list(s.b, signal) });
    a.platform.items.set(1, { id: 1, state: 'moving' });
    b.platform.items.set(1, { id: 1, state: 'resting' });
    b.platform.failNext = 1000;
    await scheduler.refresh();
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 50 && scheduler.busy; i++) await flush();
    };
    // 2 + 4 + 8 intervals of backoff for b = 14 intervals, while a is listed at every one.
    await time.advance(14 * INTERVAL, settle);
    assert.equal(a.platform.calls, 15, 'the moving kind: one listing per interval, undisturbed');
    assert.equal(b.platform.calls, 4, 'the failing kind: first look, then after 2, 4 and 8 intervals');
    assert.ok(storeB.error instanceof Error);
    b.platform.failNext = 0;
    await time.advance(16 * INTERVAL, settle);
    assert.equal(b.platform.calls, 5, 'listed again after its backoff, then (at rest) no more');
    assert.equal(storeB.error, undefined);
    assert.equal(storeB.atRest, true);
    await time.advance(10 * INTERVAL, settle);
    assert.equal(b.platform.calls, 5);
    scheduler.dispose();
  });

  it('look() joins the poll running instead of sending another', async () => {
    const { platform, scheduler, settle } = setup();
    platform.items.set(1, { id: 1, state: 'resting' });
    const running = scheduler.refresh();
    await scheduler.look();
    await running;
    await settle();
    assert.equal(platform.calls, 1, 'look() joined the running poll');
    const first = scheduler.refresh();
    const second = scheduler.refresh();
    await Promise.all([first, second]);
    assert.equal(platform.calls, 3, 'a refresh during a poll queues one more (its answer must postdate the call)');
    await scheduler.look();
    assert.equal(platform.calls, 4, 'with nothing running, look() polls');
  });

  it('a kind first asked for after the loop came to rest is listed without a wake; onStore hears every store', async () => {
    const time = new FakeTime();
    const a = fakeKind('a');
    const b = fakeKind('b');
    const source = { a: a.platform, b: b.platform };
    const scheduler = new PollScheduler('p1', () => source, { intervalMs: INTERVAL }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    const heard: string[] = [];
    scheduler.onStore((store) => heard.push(store.kind));
    scheduler.store({ ...a.definition, list: (s, signal) => a.definition.list(s.a, signal) });
    assert.equal(time.pending, 0, 'asking for a store before the loop started polls nothing by itself');
    a.platform.items.set(1, { id: 1, state: 'resting' });
    await scheduler.refresh();
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 50 && scheduler.busy; i++) await flush();
    };
    await time.advance(5 * INTERVAL, settle);
    assert.equal(scheduler.atRest, true);
    assert.equal(time.pending, 0, 'at rest: no timer');
    b.platform.items.set(7, { id: 7, state: 'resting' });
    const late = scheduler.store({ ...b.definition, list: (s, signal) => b.definition.list(s.b, signal) });
    await time.advance(POLL_FLOOR_MS, settle);
    assert.equal(b.platform.calls, 1, 'the new kind is listed as soon as the floor allows');
    assert.deepEqual(late.items.map((item) => item.id), [7]);
    assert.deepEqual(heard, ['a', 'b'], 'onStore hears the store there and the one created later');
  });

  it('a store is one per definition, and a disposed scheduler sends nothing more', async () => {
    const { time, platform, scheduler, store, settle } = setup();
    const { definition } = fakeKind();
    assert.notEqual(scheduler.store(definition), store);
    assert.equal(scheduler.store(store.definition), store);
    platform.items.set(1, { id: 1, state: 'moving' });
    await scheduler.refresh();
    const before = platform.calls;
    scheduler.dispose();
    await time.advance(10 * INTERVAL, settle);
    assert.equal(platform.calls, before);
  });

  it('a restart (new credentials) drops the poll running under the old ones unapplied and lists again at once', async () => {
    // Each listing waits for the test to answer it, as a slow platform would.
    const answers: ((listing: Listing<Item>) => void)[] = [];
    const definition: StateDefinition<Item, number, null> = {
      kind: 'gated',
      key: (item) => item.id,
      list: (_source, signal) =>
        new Promise((resolve, reject) => {
          answers.push(resolve);
          signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
        }),
      atRest: () => false,
      equal: (a, b) => a.state === b.state,
    };
    const time = new FakeTime();
    const scheduler = new PollScheduler('p1', () => null, { intervalMs: INTERVAL }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    const store = scheduler.store(definition);
    const changes: StateChange<Item>[] = [];
    store.onChange((change) => {
      changes.push(change);
    });
    const first = scheduler.refresh();
    answers[0]!({ items: [{ id: 1, state: 'moving' }], complete: true });
    await first;
    assert.equal(changes.length, 1);

    const old = scheduler.refresh();
    await flush();
    assert.equal(answers.length, 2, 'a second poll is running');
    const restarted = scheduler.restart();
    await flush();
    assert.equal(answers.length, 3, 'the restart lists again without waiting for the floor');
    answers[1]!({ items: [{ id: 9, state: 'moving' }], complete: true }); // the old credentials' answer, too late
    answers[2]!({ items: [{ id: 1, state: 'moving' }], complete: true });
    await Promise.all([old, restarted]);
    assert.equal(store.error, undefined, 'the dropped poll is not a failure');
    assert.deepEqual(store.items.map((item) => item.id), [1], 'only the new answer is applied');
    assert.ok(changes.every((change) => change.added.every((item) => item.id !== 9)), 'nothing of the dropped poll was announced');
    assert.ok(changes.slice(1).every((change) => change.removed.length === 0 && change.added.length === 0), 'held items did not read as ended or new');
    scheduler.dispose();
  });

  it('tells each listing whether it is a look (first, wake, refresh) or a timer poll, and what the store holds; a failed look is owed', async () => {
    const { platform, definition } = fakeKind();
    const seen: { look: boolean; previous: number }[] = [];
    const time = new FakeTime();
    const scheduler = new PollScheduler('p1', () => platform, { intervalMs: INTERVAL }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    scheduler.store({
      ...definition,
      list: (source, signal, context) => {
        assert.ok(context, 'the scheduler always passes a context');
        seen.push({ look: context.look, previous: context.previous.length });
        return definition.list(source, signal);
      },
    });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 50 && scheduler.busy; i++) await flush();
    };
    platform.items.set(1, { id: 1, state: 'moving' });
    platform.items.set(2, { id: 2, state: 'moving' });
    scheduler.wake();
    await time.advance(0, settle);
    await time.advance(2 * INTERVAL, settle);
    scheduler.wake();
    await time.advance(POLL_FLOOR_MS, settle);
    await scheduler.refresh();
    assert.deepEqual(seen, [
      { look: true, previous: 0 },
      { look: false, previous: 2 },
      { look: false, previous: 2 },
      { look: true, previous: 2 },
      { look: true, previous: 2 },
    ]);
    // A look that fails: the retry (after the backoff) is a look too, though the timer sends it; then timer polls again.
    seen.length = 0;
    platform.failNext = 1;
    scheduler.wake();
    await time.advance(3 * INTERVAL + POLL_FLOOR_MS, settle);
    assert.deepEqual(
      seen.map((entry) => entry.look),
      [true, true, false],
    );
    scheduler.dispose();
  });
});
