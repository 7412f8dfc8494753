// `npm run sandbox` / `node out/test/sandbox/main.js [--port N] [--pending-ms N] [--seed N]
// [--envelope-field message|msg] [--write-bootstrap FILE]`: starts the sandbox for people and
// scripts, and keeps it up until SIGINT or SIGTERM.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startSandbox } from './server';
import type { SandboxOptions } from './types';

const USAGE = `usage: node out/test/sandbox/main.js [options]
  --port N               listen on 127.0.0.1:N (default: a free port)
  --pending-ms N         how long new tasks stay Pending (default 3000)
  --model-load-ms N      how long a vLLM task pulls and loads before its URL answers (default 6000)
  --seed N               seed of the generated devices, prices and tasks
  --envelope-field F     "message" (the platform, default) or "msg" (the spec)
  --write-bootstrap FILE write the bootstrap JSON (URLs and generated test keys) to FILE
  --heavy-account        start with 2,000 more tasks (48 active, 1,952 ended), as after months of use
  --help                 show this text`;

function integerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} needs a non-negative integer, got "${value}"`);
  return Number(value);
}

function parseOptions(argv: string[]): { options: SandboxOptions; bootstrapFile?: string; heavy: boolean } | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'pending-ms': { type: 'string' },
      'model-load-ms': { type: 'string' },
      seed: { type: 'string' },
      'envelope-field': { type: 'string' },
      'write-bootstrap': { type: 'string' },
      'heavy-account': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  const envelopeField = values['envelope-field'];
  if (envelopeField !== undefined && envelopeField !== 'message' && envelopeField !== 'msg') {
    throw new Error(`--envelope-field must be "message" or "msg", got "${envelopeField}"`);
  }
  const options: SandboxOptions = {};
  const port = integerOption('port', values.port);
  const pendingMs = integerOption('pending-ms', values['pending-ms']);
  const seed = integerOption('seed', values.seed);
  if (port !== undefined) options.port = port;
  if (pendingMs !== undefined) options.pendingMs = pendingMs;
  const modelLoadMs = integerOption('model-load-ms', values['model-load-ms']);
  if (modelLoadMs !== undefined) options.modelLoadMs = modelLoadMs;
  if (seed !== undefined) options.seed = seed;
  if (envelopeField !== undefined) options.envelopeField = envelopeField;
  const bootstrapFile = values['write-bootstrap'];
  const heavy = values['heavy-account'] === true;
  return bootstrapFile === undefined ? { options, heavy } : { options, bootstrapFile, heavy };
}

/** What --heavy-account adds (POST /__sandbox/tasks/seed does the same at run time). */
const HEAVY_ACCOUNT = { running: 30, pending: 10, paused: 8, ended: 1952 };

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (!parsed) {
    console.log(USAGE);
    return;
  }

  const sandbox = await startSandbox(parsed.options);
  if (parsed.heavy) sandbox.seedTasks(HEAVY_ACCOUNT);
  if (parsed.bootstrapFile) {
    const response = await fetch(`${sandbox.url}/__sandbox/bootstrap`);
    // Owner-only: the file holds the sandbox's generated (throwaway) keys.
    writeFileSync(parsed.bootstrapFile, await response.text(), { mode: 0o600 });
  }
  console.log(`Compute Toolkit sandbox listening on ${sandbox.url}`);
  console.log(
    `Compute API ${sandbox.computeBaseUrl}, model API ${sandbox.modelApiBaseUrl}; ` +
      `in VS Code run "Connect to Local Sandbox" with this URL (keys: ${sandbox.url}/__sandbox/bootstrap). Ctrl+C stops it.`,
  );

  const stop = (signal: NodeJS.Signals): void => {
    console.log(`\n${signal}: closing the sandbox`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('sandbox did not close cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('sandbox failed to start:', error);
  process.exitCode = 1;
});
