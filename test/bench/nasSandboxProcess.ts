// The NAS benchmark's sandbox in a process of its own (forked by nas.ts): its SFTP server encrypts and
// writes on other cores and its memory is not the benchmark's, so the figures printed are the extension
// path's own. Sends {computeBaseUrl, url, token} once listening; closes when the parent goes away.

import { startSandbox } from '../sandbox/server';

export interface NasBenchSandbox {
  computeBaseUrl: string;
  url: string;
  token: string;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ nas: { creatingMs: 0, sftpPendingMs: 0 } });
  const ready: NasBenchSandbox = { computeBaseUrl: sandbox.computeBaseUrl, url: sandbox.url, token: sandbox.credentials.tokenMode.token };
  process.send?.(ready);
  process.on('disconnect', () => {
    void sandbox.close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
