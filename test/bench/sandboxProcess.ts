// The benchmarks' sandbox in a process of its own (forked by sandboxChild.ts and nas.ts): its SSH machine,
// Jupyter gateway and SFTP server run on other cores and its memory is not the benchmark's, so the host
// process measured holds only the client side, as the editor's would. The first argument picks the
// timings: `nas` (volumes Active at once), `machines` (machines Serving after 50 ms) or `preheat` (tasks
// and preheats start at once; the image pull is set by the benchmark). Sends
// {computeBaseUrl, url, token} once listening; closes when the parent goes away.

import { startSandbox } from '../sandbox/server';
import type { SandboxOptions } from '../sandbox/types';

export interface BenchSandbox {
  computeBaseUrl: string;
  url: string;
  token: string;
}

const OPTIONS: Record<string, SandboxOptions> = {
  // Credentials that outlive a 1 GiB OpenSSH transfer on a slow machine (`sftp` cannot renew them).
  nas: { nas: { creatingMs: 0, sftpPendingMs: 0, sessionLifetimeMs: 6 * 3_600_000 } },
  machines: { pendingMs: 0, metal: { waitingMs: 50 } },
  // Tasks scheduled at once and preheats Running at once: a start waits only for the modelled image pull.
  preheat: { pendingMs: 0, preheatPendingMs: 0 },
};

async function main(): Promise<void> {
  const options = OPTIONS[process.argv[2] ?? 'machines'];
  if (!options) throw new Error(`no sandbox timings named "${process.argv[2] ?? ''}"`);
  const sandbox = await startSandbox(options);
  const ready: BenchSandbox = { computeBaseUrl: sandbox.computeBaseUrl, url: sandbox.url, token: sandbox.credentials.tokenMode.token };
  process.send?.(ready);
  process.on('disconnect', () => {
    void sandbox.close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
