// First-token latency where users see it (a benchmark run as a browser check: it prints, it does not judge).
// On one wall clock — the browser's performance.timeOrigin + now() and the sandbox's, same machine — it
// records for each of SENDS messages: Enter pressed in the chat input → the request at the sandbox, and
// the sandbox writing the first content delta → that text in the webview's DOM. Prints median and p95,
// and each hop between (the host's times come with the first delta when the extension host runs with
// COMPUTE_TOOLKIT_LATENCY_PROBE=1, as scripts/vscode-web/run.mjs starts it for the browser checks).

import type { FrameLocator } from 'playwright-core';
import type { HopTimes } from '../../src/shared/protocol';
import type { SandboxBootstrap } from '../sandbox/types';

const SENDS = 20;

interface StreamTimes {
  id: string;
  receivedAt?: number;
  firstContentAt?: number;
}

interface FirstDelta {
  /** The first delta with text reached the webview (its message event, before the page handles it). */
  receivedAt: number;
  /** The turn the delta belongs to was already on the page (its state message came first). */
  turnShown: boolean;
  hops?: HopTimes;
}

interface PageTimes {
  sendAt: number[];
  visibleAt: number[];
  /** The frame after the text reached the DOM was painted (a task queued from its animation frame). */
  paintedAt: number[];
  firstDeltas: FirstDelta[];
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function latestStream(sandbox: SandboxBootstrap): Promise<StreamTimes | undefined> {
  const response = await fetch(`${sandbox.modelApiBaseUrl.replace(/\/+$/, '')}/__sandbox/streams`);
  const body = (await response.json()) as { streams?: StreamTimes[] };
  return body.streams?.[0];
}

/** Installs the probes in the webview: Enter in the composer, and the first text of each new reply. */
async function installProbes(webview: FrameLocator): Promise<void> {
  await webview.locator('body').evaluate((body) => {
    const clock = (): number => performance.timeOrigin + performance.now();
    const times: PageTimes = { sendAt: [], visibleAt: [], paintedAt: [], firstDeltas: [] };
    (window as unknown as { chatLatency: PageTimes }).chatLatency = times;
    const seen = new Set<string>();
    const deltaSeen = new Set<string>();
    // Capture phase: runs before the page's own listener renders the delta.
    window.addEventListener('message', (event: MessageEvent<{ type?: string; turnId?: string; content?: string; hops?: HopTimes }>) => {
      const message = event.data;
      if (message?.type !== 'chat/delta' || !message.content || deltaSeen.has(message.turnId ?? '')) return;
      deltaSeen.add(message.turnId ?? '');
      const turnShown = body.querySelector(`article[data-turn-id="${CSS.escape(message.turnId ?? '')}"]`) !== null;
      times.firstDeltas.push({ receivedAt: clock(), turnShown, ...(message.hops ? { hops: message.hops } : {}) });
    }, true);
    body.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Enter' && !(event as KeyboardEvent).shiftKey) times.sendAt.push(clock());
    }, true);
    new MutationObserver(() => {
      for (const turn of body.querySelectorAll<HTMLElement>('article.turn-assistant.status-streaming')) {
        const id = turn.dataset.turnId ?? '';
        if (seen.has(id)) continue;
        if ((turn.querySelector('.turn-body')?.textContent ?? '').trim() === '') continue;
        seen.add(id);
        times.visibleAt.push(clock());
        const index = times.visibleAt.length - 1;
        requestAnimationFrame(() => setTimeout(() => (times.paintedAt[index] = clock())));
      }
    }).observe(body, { subtree: true, childList: true, characterData: true });
  });
}

export async function measureChatLatency(webview: FrameLocator, sandbox: SandboxBootstrap, inputLabel: string): Promise<string> {
  await installProbes(webview);
  const input = webview.getByLabel(inputLabel, { exact: true });
  const sendToRequest: number[] = [];
  const deltaToVisible: number[] = [];
  const deltaToPainted: number[] = [];
  let turnMissing = 0;
  const hops = new Map<string, number[]>();
  const hop = (name: string, from: number | undefined, to: number | undefined): void => {
    if (from === undefined || to === undefined) return;
    const values = hops.get(name) ?? [];
    values.push(to - from);
    hops.set(name, values);
  };
  for (let i = 0; i < SENDS; i++) {
    const before = await latestStream(sandbox);
    await input.fill(`Latency probe ${i + 1}: one short sentence please.`);
    await input.press('Enter');
    let stream: StreamTimes | undefined;
    // Polls until the reply has arrived (a generous deadline: a busy machine is slow, never wrong).
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      stream = await latestStream(sandbox);
      const page = await webview.locator('body').evaluate(() => (window as unknown as { chatLatency: PageTimes }).chatLatency);
      const busy = await webview.locator('article.turn-assistant.status-streaming').count();
      if (stream && stream.id !== before?.id && stream.firstContentAt !== undefined && page.visibleAt.length > i && busy === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const page = await webview.locator('body').evaluate(() => (window as unknown as { chatLatency: PageTimes }).chatLatency);
    const sendAt = page.sendAt[i];
    const visibleAt = page.visibleAt[i];
    if (!stream || stream.id === before?.id || stream.receivedAt === undefined || stream.firstContentAt === undefined || sendAt === undefined || visibleAt === undefined) {
      throw new Error(`send ${i + 1}: no timings (stream ${JSON.stringify(stream)}, page ${sendAt}/${visibleAt})`);
    }
    sendToRequest.push(stream.receivedAt - sendAt);
    deltaToVisible.push(visibleAt - stream.firstContentAt);
    const paintedAt = page.paintedAt[i];
    if (paintedAt !== undefined) deltaToPainted.push(paintedAt - stream.firstContentAt);
    const first = page.firstDeltas[i];
    const host = first?.hops;
    if (first && !first.turnShown) turnMissing += 1;
    hop('send: Enter → host has chat/send', sendAt, host?.hostReceivedAt);
    hop('send: host has it → request handed to the client', host?.hostReceivedAt, host?.requestStartedAt);
    hop('send: handed to the client → request at the sandbox', host?.requestStartedAt, stream.receivedAt);
    hop('reply: sandbox wrote first delta → host decoded it', stream.firstContentAt, host?.firstEventAt);
    hop('reply: decoded → posted to the webview', host?.firstEventAt, host?.postedAt);
    hop('reply: posted → webview has the message', host?.postedAt, first?.receivedAt);
    hop('reply: webview has it → text in the DOM', first?.receivedAt, visibleAt);
    hop('reply: text in the DOM → that frame painted', visibleAt, paintedAt);
  }
  const line = (name: string, values: number[], goal: string): string =>
    `${name}: median ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms (goal ${goal})`;
  return [
    `chat latency over ${SENDS} sends (one wall clock, real browser):`,
    line('  Send pressed → request at the sandbox', sendToRequest, '≤ 10 ms median'),
    line('  first delta written → visible in the webview', deltaToVisible, '≤ 25 ms median, ≤ 50 ms p95'),
    line('  first delta written → the frame with it painted', deltaToPainted, 'two frames'),
    `  first deltas that reached the webview before their turn was on the page: ${turnMissing} of ${SENDS}`,
    hops.size === 0 ? '  (no per-hop times: the extension host ran without COMPUTE_TOOLKIT_LATENCY_PROBE=1)' : '  per hop (same clock):',
    ...[...hops].map(([name, values]) =>
      `    ${name}: median ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms (n=${values.length})`),
  ].join('\n');
}
