// Spend chart render time: 90 days × 50 tasks (4,500 stacked bars plus the screen-reader table)
// against an empty chart, in one process, median [min–max] of several rounds. What is timed is the
// markup the webview assigns in one animation frame (a browser's parse of it is not measured here).
// Goal: within one frame (16.7 ms) after the data arrives.
// Run: npm run compile-tests && node out/test/bench/spendChart.js

import type { SpendChartData } from '../../src/shared/spendProtocol';
import { renderLegend, renderSpendChart, renderSpendTable } from '../../src/webview/spend/chart';

const FRAME_MS = 1000 / 60;
const ROUNDS = 15;

function chart(days: number, tasks: number): SpendChartData {
  const labels = Array.from({ length: days }, (_, day) => `${String(1 + (day % 12)).padStart(2, '0')}-${String(1 + (day % 28)).padStart(2, '0')}`);
  return {
    days: labels,
    series: Array.from({ length: tasks }, (_, task) => ({
      label: `task-${task} <name>`,
      values: Array.from({ length: days }, (_, day) => ((task * 7 + day * 3) % 11) / 10),
      labels: Array.from({ length: days }, (_, day) => `¥${(((task * 7 + day * 3) % 11) / 10).toFixed(2)}`),
    })),
    dayTotals: labels.map(() => '¥25.00'),
    ticks: [0, 10, 20, 30].map((value) => ({ value, label: `¥${value}.00` })),
    max: 30,
  };
}

function render(data: SpendChartData): number {
  const started = performance.now();
  const markup = renderSpendChart(data) + renderLegend(data) + renderSpendTable(data, 'Spend by day', 'Total');
  const elapsed = performance.now() - started;
  if (markup.length === 0) throw new Error('empty markup');
  return elapsed;
}

function stats(samples: number[]): { median: number; min: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}

export async function runSpendChartBench(): Promise<void> {
  const empty = chart(90, 0);
  const full = chart(90, 50);
  render(empty);
  render(full);
  const emptyTimes: number[] = [];
  const fullTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    emptyTimes.push(render(empty));
    fullTimes.push(render(full));
  }
  const e = stats(emptyTimes);
  const f = stats(fullTimes);
  const format = (s: { median: number; min: number; max: number }): string => `${s.median.toFixed(3)} ms [${s.min.toFixed(3)}–${s.max.toFixed(3)}]`;
  console.log('\n## Spend chart (90 days × 50 tasks, stacked SVG + table markup)');
  console.log(`empty chart           ${format(e)}`);
  console.log(`90 days × 50 tasks    ${format(f)}  = ${(f.median / Math.max(e.median, 0.001)).toFixed(1)}× the empty render`);
  console.log(`one frame is ${FRAME_MS.toFixed(1)} ms: ${f.median <= FRAME_MS ? 'within one frame' : 'OVER one frame'} (${((f.median / FRAME_MS) * 100).toFixed(0)} % of a frame)`);
  await Promise.resolve();
}

if (require.main === module) void runSpendChartBench();
