// Cost of the token count estimate the model provider answers VS Code with (provideTokenCount), as a ratio
// to one bare charCodeAt pass over the same text: the estimate is one such pass plus a range test.
import { estimateTokens } from '../../src/core/inference/tokenEstimate';

function bestOf(runs: number, body: () => void): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    body();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export async function runTokensBench(): Promise<void> {
  console.log('\n== Token count estimate (provideTokenCount) ==');
  const text = JSON.parse(JSON.stringify('Explain this code: const x = 1; // 解释这段代码，并找出错误。\n'.repeat(20_000))) as string;
  let sink = 0;
  const baseline = bestOf(15, () => {
    for (let index = 0; index < text.length; index++) sink += text.charCodeAt(index) & 1;
  });
  const estimate = bestOf(15, () => {
    sink += estimateTokens(text);
  });
  const mbPerSecond = (text.length * 2) / 1e6 / (estimate / 1000);
  console.log(`  ${(text.length / 1e6).toFixed(2)} M chars: charCodeAt pass ${baseline.toFixed(2)} ms, estimate ${estimate.toFixed(2)} ms (${mbPerSecond.toFixed(0)} MB/s of UTF-16)`);
  console.log(`  ratio ${(estimate / baseline).toFixed(2)}× a bare pass (${sink > 0 ? 'ok' : ''})`);
  await Promise.resolve();
}
