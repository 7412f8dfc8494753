// activate's failure path (issue 28): an area that fails while it registers is taken back whole, the
// areas after it still come up, those built from it fail with it, and every failure is kept for one report.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AreaRegistry, AreaUnavailableError, fromArea, startOrTakeBack } from '../../../src/vscode/areaRegistry';

/** A disposable that records its disposal, like a registered command or view. */
function registration(name: string, disposed: string[]): { dispose(): void } {
  return { dispose: () => disposed.push(name) };
}

describe('area registry', () => {
  it('takes back what a failing area registered, and the next area still comes up', () => {
    const subscriptions: { dispose(): unknown }[] = [registration('services', [])];
    const disposed: string[] = [];
    const log: string[] = [];
    // The tests' hook fails "nas" after it registered: its commands and its own pushes are half-registered.
    const areas = new AreaRegistry(subscriptions, (line) => log.push(line), (area) => {
      if (area === 'nas') throw new Error('forced');
    });
    const compute = areas.add('compute', () => ({ api: { rows: () => 3 }, disposables: [registration('compute view', disposed)] }));
    const nas = areas.add('nas', () => {
      subscriptions.push(registration('nas file system', disposed));
      return { api: { volumes: () => ['v1'] }, disposables: [registration('nas view', disposed), registration('nas commands', disposed)] };
    });
    const jobs = areas.add('jobs', () => ({ api: { hooks: nas.volumes }, disposables: [registration('jobs view', disposed)] }));
    const preheat = areas.add('preheat', () => ({ api: { count: () => compute.rows() }, disposables: [registration('preheat view', disposed)] }));

    assert.deepEqual(disposed, ['nas commands', 'nas view', 'nas file system'], 'everything nas registered is disposed, newest first; nothing else');
    assert.equal(subscriptions.length, 3, 'services, compute view and preheat view stay registered');
    assert.equal(preheat.count(), 3, 'an area independent of the failed one works');
    assert.deepEqual(areas.failures.map((failure) => failure.area), ['nas', 'jobs'], 'jobs is built from nas: it fails with it');
    assert.ok(areas.failures[1]!.error instanceof AreaUnavailableError);
    assert.throws(() => jobs.hooks, AreaUnavailableError, 'a failed area is a stand-in that throws on use');
    assert.match(log[0]!, /^nas did not start: Error: forced/);
    assert.match(log[1]!, /^jobs did not start: it needs nas$/);
  });

  it('an area that throws before it returns leaves nothing it pushed, and a stand-in can be awaited', async () => {
    const subscriptions: { dispose(): unknown }[] = [];
    const disposed: string[] = [];
    const areas = new AreaRegistry(subscriptions, () => undefined);
    const chat = areas.add<{ open(): void }>('chat', () => {
      subscriptions.push(registration('chat panel', disposed));
      throw new TypeError('broken');
    });
    assert.deepEqual(disposed, ['chat panel']);
    assert.equal(subscriptions.length, 0);
    assert.equal(await Promise.resolve(chat).then(() => 'settled'), 'settled');
    assert.equal(areas.failures.length, 1);
  });

  it('a disposal that throws while taking an area back is logged, the rest still disposed', () => {
    const disposed: string[] = [];
    const log: string[] = [];
    const areas = new AreaRegistry([], (line) => log.push(line), () => {
      throw new Error('forced');
    });
    areas.add('specs', () => ({
      api: {},
      disposables: [registration('documents', disposed), { dispose: () => { throw new Error('already gone'); } }],
    }));
    assert.deepEqual(disposed, ['documents']);
    assert.ok(log.some((line) => line.includes('already gone')));
  });

  it('a port built before its area reads it once built, and falls back when that area did not start', () => {
    const areas = new AreaRegistry([], () => undefined);
    // The root's order: the view first, with a port that reads the later area as a row is drawn.
    const note = (taskId: number): string | undefined => fromArea(() => timers.note(taskId), undefined);
    const timers = areas.add('timers', () => ({ api: { note: (taskId: number) => `timer ${taskId}` }, disposables: [] }));
    assert.equal(note(7), 'timer 7');
    const failed = areas.add<{ note(taskId: number): string }>('spend', () => {
      throw new Error('forced');
    });
    assert.equal(fromArea(() => failed.note(7), undefined), undefined);
    assert.throws(() => fromArea(() => { throw new RangeError('a real bug'); }, undefined), RangeError);
  });

  it('an area that throws halfway disposes what it created so far (its own list), once each', () => {
    const subscriptions: { dispose(): unknown }[] = [];
    const disposed: string[] = [];
    const areas = new AreaRegistry(subscriptions, () => undefined);
    const view = registration('view', disposed);
    areas.add('compute', (own) => {
      own.push(view, registration('commands', disposed));
      if (own.length > 1) throw new Error('the third tree failed');
      return { api: {}, disposables: [view] };
    });
    assert.deepEqual(disposed, ['commands', 'view']);
    assert.equal(subscriptions.length, 0);
    // On success the own list joins the extension's subscriptions, a disposable handed back twice once.
    const kept = areas.add('nas', (own) => {
      own.push(view);
      return { api: { ok: true }, disposables: [view, registration('nas commands', disposed)] };
    });
    assert.equal(kept.ok, true);
    assert.equal(subscriptions.length, 2);
  });

  it('activate that throws takes back what it registered, reports once, and rethrows', () => {
    const disposed: string[] = [];
    const subscriptions: { dispose(): unknown }[] = [registration('another extension part', disposed)];
    const reported: unknown[] = [];
    const failure = new Error('command already exists');
    assert.throws(
      () =>
        startOrTakeBack(subscriptions, () => {
          subscriptions.push(registration('services', disposed), { dispose: () => { throw new Error('gone'); } }, registration('status bar', disposed));
          throw failure;
        }, (error: unknown) => {
          reported.push(error);
        }),
      (error) => error === failure,
    );
    assert.deepEqual(disposed, ['status bar', 'services']);
    assert.equal(subscriptions.length, 1);
    assert.equal(reported.length, 1);
    assert.equal(reported[0], failure);
    const started: string = startOrTakeBack(subscriptions, () => 'api', (error: unknown) => {
      reported.push(error);
    });
    assert.equal(started, 'api');
    assert.equal(reported.length, 1);
  });
});
