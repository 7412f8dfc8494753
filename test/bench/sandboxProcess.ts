// The machines and notebooks benchmarks' sandbox in a process of its own (forked by sandboxChild.ts): its
// SSH machine (pure-JS ssh2 server) and Jupyter gateway run on other cores, so the host process measured
// holds only the client side, as the editor's would. Sends {computeBaseUrl, token} once listening; closes
// when the parent goes away.

import { startSandbox } from '../sandbox/server';

export interface BenchSandbox {
  computeBaseUrl: string;
  token: string;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ pendingMs: 0, metal: { waitingMs: 50 } });
  const ready: BenchSandbox = { computeBaseUrl: sandbox.computeBaseUrl, token: sandbox.credentials.tokenMode.token };
  process.send?.(ready);
  process.on('disconnect', () => {
    void sandbox.close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
