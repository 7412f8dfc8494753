// First-token latency where users see it (a benchmark run as a browser check: it prints, it does not judge).
// On one wall clock — the browser's performance.timeOrigin + now() and the sandbox's, same machine — it
// records for each of SENDS messages: Enter pressed in the chat input → the request at the sandbox, and
// the sandbox writing the first content delta → that text in the webview's DOM. Prints median and p95.

import type { FrameLocator } from 'playwright-core';
import type { SandboxBootstrap } from '../sandbox/types';

const SENDS = 20;

interface StreamTimes {
  id: string;
  receivedAt?: number;
  firstContentAt?: number;
}

interface PageTimes {
  sendAt: number[];
  visibleAt: number[];
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
    const times: PageTimes = { sendAt: [], visibleAt: [] };
    (window as unknown as { chatLatency: PageTimes }).chatLatency = times;
    const seen = new Set<string>();
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
      }
    }).observe(body, { subtree: true, childList: true, characterData: true });
  });
}

export async function measureChatLatency(webview: FrameLocator, sandbox: SandboxBootstrap, inputLabel: string): Promise<string> {
  await installProbes(webview);
  const input = webview.getByLabel(inputLabel, { exact: true });
  const sendToRequest: number[] = [];
  const deltaToVisible: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const before = await latestStream(sandbox);
    await input.fill(`Latency probe ${i + 1}: one short sentence please.`);
    await input.press('Enter');
    let stream: StreamTimes | undefined;
    for (let attempt = 0; attempt < 200; attempt++) {
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
  }
  const line = (name: string, values: number[], goal: string): string =>
    `${name}: median ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms (goal ${goal})`;
  return [
    `chat latency over ${SENDS} sends (one wall clock, real browser):`,
    line('  Send pressed → request at the sandbox', sendToRequest, '≤ 10 ms median'),
    line('  first delta written → visible in the webview', deltaToVisible, '≤ 25 ms median, ≤ 50 ms p95'),
  ].join('\n');
}
