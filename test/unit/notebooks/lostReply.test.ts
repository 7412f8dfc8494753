// A run whose end a dropped connection lost (core/notebooks/lostReply.ts): ended once the link is back and
// the server says the kernel is idle on two looks in a row; never while the kernel is busy, the link is
// still down, or before any drop; at once when the link is gone for good; and no look after the reply came.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IDLE_LOOKS, lostReply, type LinkState, type LostReplyPorts } from '../../../src/core/notebooks/lostReply';

interface FakePorts {
  state: string | undefined;
  looks: number;
  readonly listening: number;
  readonly ports: LostReplyPorts;
  link(link: LinkState): void;
  /** Ends the pending wait, then lets the look run. */
  tick(): Promise<void>;
}

/** Ports driven by the test: link changes by hand, the kernel's state as set, each wait resolved by `tick`. */
function fakePorts(): FakePorts {
  const listeners = new Set<(link: LinkState) => void>();
  const waits: (() => void)[] = [];
  const fake: FakePorts = {
    state: 'busy',
    looks: 0,
    get listening() {
      return listeners.size;
    },
    link(link) {
      for (const listener of [...listeners]) listener(link);
    },
    async tick() {
      waits.shift()?.();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
    ports: {
      onLink: (listener) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      executionState: async () => {
        fake.looks++;
        return fake.state;
      },
      wait: (_ms, signal) =>
        new Promise<void>((resolve) => {
          waits.push(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    },
  };
  return fake;
}

async function settledWithin<T>(promise: Promise<T>, fake: FakePorts, ticks: number): Promise<T | 'pending'> {
  let result: T | 'pending' = 'pending';
  void promise.then((value) => (result = value));
  for (let i = 0; i < ticks && result === 'pending'; i++) await fake.tick();
  return result;
}

describe('a run whose end the connection lost', () => {
  it('ends after a drop once the link is back and the kernel is idle on two looks in a row', async () => {
    const fake = fakePorts();
    const lost = lostReply(fake.ports, new AbortController().signal);
    fake.link('connecting');
    fake.link('connected');
    fake.state = 'busy';
    assert.equal(await settledWithin(lost, fake, 5), 'pending', 'a busy kernel is still running the cell');
    fake.state = 'idle';
    assert.equal(await settledWithin(lost, fake, IDLE_LOOKS + 1), 'idle');
    assert.equal(fake.listening, 0, 'stops listening once ended');
  });

  it('never looks without a drop, nor while the link is still down', async () => {
    const fake = fakePorts();
    fake.state = 'idle';
    const lost = lostReply(fake.ports, new AbortController().signal);
    assert.equal(await settledWithin(lost, fake, 5), 'pending');
    assert.equal(fake.looks, 0, 'no drop: the reply comes over the WebSocket as usual');
    fake.link('connecting');
    fake.link('connected');
    fake.link('connecting');
    assert.equal(await settledWithin(lost, fake, 5), 'pending', 'a reply the server kept comes when the link is back');
    fake.link('connected');
    assert.equal(await settledWithin(lost, fake, IDLE_LOOKS + 1), 'idle');
  });

  it('ends at once when the link is gone for good', async () => {
    const fake = fakePorts();
    const lost = lostReply(fake.ports, new AbortController().signal);
    fake.link('disconnected');
    assert.equal(await settledWithin(lost, fake, 1), 'disconnected');
  });

  it('a reply that came stops the watch: no more looks, nothing resolved', async () => {
    const fake = fakePorts();
    const heard = new AbortController();
    const lost = lostReply(fake.ports, heard.signal);
    fake.link('connecting');
    fake.link('connected');
    fake.state = 'busy';
    await settledWithin(lost, fake, 3);
    const looks = fake.looks;
    heard.abort();
    fake.state = 'idle';
    assert.equal(await settledWithin(lost, fake, 5), 'pending');
    assert.equal(fake.looks, looks, 'no look after the reply');
    assert.equal(fake.listening, 0);
  });
});
