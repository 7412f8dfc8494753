// `npm run bench`: every benchmark, each printing ratios measured side by side in one process.
// Benchmarks are not tests: they print numbers and goals, they never fail a build.
import { runActivationBench } from './activation';
import { runChatHistoryBench } from './chatHistory';
import { runComputeBench } from './compute';
import { runJobsBench } from './jobs';
import { runMachineKernelBench } from './machineKernel';
import { runMachinesBench } from './machines';
import { runMcpBench } from './mcp';
import { runNasBench } from './nas';
import { runNotebooksBench } from './notebooks';
import { runPreheatStartBench } from './preheatStart';
import { runRenderBench } from './render';
import { runSpendChartBench } from './spendChart';
import { runSseBench } from './sse';
import { runStallsBench } from './stalls';
import { runStatePollingBench } from './statePolling';
import { runTasksViewBench } from './tasksView';
import { runTokensBench } from './tokens';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const all: [string, () => Promise<void>][] = [
    ['compute', runComputeBench],
    ['sse', runSseBench],
    ['render', runRenderBench],
    ['spend', runSpendChartBench],
    ['chat-history', runChatHistoryBench],
    ['tasks', runTasksViewBench],
    ['state', runStatePollingBench],
    ['activation', () => runActivationBench()],
    ['mcp', runMcpBench],
    ['tokens', runTokensBench],
    ['jobs', runJobsBench],
    ['nas', runNasBench],
    ['stalls', runStallsBench],
    ['machines', runMachinesBench],
    ['notebooks', runNotebooksBench],
    ['machine-kernel', runMachineKernelBench],
    ['preheat-start', runPreheatStartBench],
  ];
  for (const [name, run] of all) {
    if (only.length > 0 && !only.includes(name)) continue;
    await run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
