// Error names survive the production build: the log and the error reports print `error.name`, and a
// minifier that renames classes turns "TimeoutError" into "ls". Builds every error class with the
// release options of esbuild.js (minified), loads the result and checks each name.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sharedOptions } = require(join(repoRoot, 'esbuild.js')) as { sharedOptions: (o: { production: boolean }) => esbuild.BuildOptions };

/** Each error class and arguments that construct it. */
const ENTRY = `
import { ConfigError, HttpError, RateLimitError, TimeoutError, AbortedError, NetworkError, ProtocolError } from './src/core/errors';
import { ComputeApiError } from './src/core/compute/errors';
import { ModelApiError } from './src/core/inference/modelErrors';
import { MissingModelKeyError, NoChatProfileError, NoChatModelError } from './src/core/chat/turnErrors';
import { SseLineTooLongError } from './src/core/inference/sseDecoder';
import { MissingSecretError, NoProfileError } from './src/vscode/errors/missingSecretError';
export const errors = [
  new ConfigError('x'),
  new HttpError(500, '', undefined),
  new RateLimitError('', undefined),
  new TimeoutError('request', 1),
  new AbortedError(),
  new NetworkError('x', undefined),
  new ProtocolError('x'),
  new ComputeApiError('C001', '', 'raw', { kind: 'unknown', detail: '' }, 200, 'x'),
  new ModelApiError({ status: 400, serverMessage: 'x' }),
  new MissingModelKeyError('p'),
  new NoChatProfileError(),
  new NoChatModelError('x'),
  new MissingSecretError({ id: 'p', label: 'p' }, 'apiToken', 'x'),
  new NoProfileError(),
  new SseLineTooLongError(10),
];
`;

const EXPECTED = [
  'ConfigError',
  'HttpError',
  'RateLimitError',
  'TimeoutError',
  'AbortedError',
  'NetworkError',
  'ProtocolError',
  'ComputeApiError',
  'ModelApiError',
  'MissingModelKeyError',
  'NoChatProfileError',
  'NoChatModelError',
  'MissingSecretError',
  'NoProfileError',
  'SseLineTooLongError',
];

async function buildErrors(production: boolean): Promise<{ name: string }[]> {
  const result = await esbuild.build({
    ...sharedOptions({ production }),
    stdin: { contents: ENTRY, resolveDir: repoRoot, loader: 'ts', sourcefile: 'errors-entry.ts' },
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode', 'undici'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles?.[0]?.text ?? '';
  const module = { exports: {} as { errors?: { name: string }[] } };
  // The bundle is our own source, built just now: evaluate it as Node would load dist/extension.js.
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports.errors ?? [];
}

describe('production bundle', () => {
  it('keeps the name of every error class when minified', async () => {
    const errors = await buildErrors(true);
    assert.deepEqual(
      errors.map((error) => error.name),
      EXPECTED,
    );
  });

  it('minifies at all (the check above would pass trivially on an unminified build)', async () => {
    const result = await esbuild.build({
      ...sharedOptions({ production: true }),
      stdin: { contents: 'export class LongDescriptiveName { method() { const localVariable = 1; return localVariable; } }', loader: 'ts' },
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    assert.doesNotMatch(result.outputFiles?.[0]?.text ?? '', /localVariable/);
  });
});
