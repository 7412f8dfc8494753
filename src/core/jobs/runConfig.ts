// `.compute/run.json`: a workspace's Run on GPU settings, so Run Again is one click. The file is
// workspace content, so it is untrusted: every field is checked and bounded, unknown fields are
// dropped, and it never holds a secret or decides where one is sent (no hosts, no tokens, no keys;
// the resource is re-looked-up by device and region in a fresh resource search because marks expire).

import { coreText, type CoreArg, type CoreMessageKey, type CoreWords } from '../errors';
import { englishText } from '../errors/messages';

export const RUN_CONFIG_PATH = '.compute/run.json';
const MAX_FILE_CHARS = 64 * 1024;

export interface RunConfig {
  version: 1;
  /** Job name prefix. */
  name: string;
  /** Shell command run in the synced folder, e.g. "python train.py". */
  command: string;
  image: string;
  /** Folder to sync, relative to the workspace root ("" = the root). */
  folder: string;
  resource: { deviceName: string; region: string };
  spot: boolean;
  /** Spot's estimated run time, seconds. */
  estimatedSec: number;
  timeoutSec: number;
  completions: number;
  parallelism: number;
  indexed: boolean;
  retries: number;
  env: { name: string; value: string }[];
  volume: { storageId: number; targetDir: string; remoteDir: string };
}

/** A problem in run.json: `message` in English, `words` its message key for the editor (docs/localization.md). */
export class RunConfigError extends Error {
  readonly words: CoreWords;
  constructor(
    readonly field: string,
    problem: RunProblem,
    ...args: CoreArg[]
  ) {
    const message = coreText(problem, RUN_CONFIG_PATH, field === 'the file' ? coreText('run.theFile') : field, ...args);
    super(englishText(message));
    this.name = 'RunConfigError';
    this.words = { message };
  }
}

type RunProblem = Extract<CoreMessageKey, `run.${string}`>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variable names that look like secrets are refused: run.json is shared with the workspace. */
const SECRET_NAME = /(token|secret|passw|api_?key|private|credential)/i;

export function parseRunConfig(text: string): RunConfig {
  if (text.length > MAX_FILE_CHARS) throw new RunConfigError('the file', 'run.tooLarge', MAX_FILE_CHARS);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new RunConfigError('the file', 'run.notJson');
  }
  const root = object('the file', raw);
  if (root.version !== 1) throw new RunConfigError('version', 'run.version');
  const resource = object('resource', root.resource);
  const volume = object('volume', root.volume);
  const envItems = root.env === undefined ? [] : array('env', root.env);
  if (envItems.length > 64) throw new RunConfigError('env', 'run.tooManyEnv');
  const config: RunConfig = {
    version: 1,
    name: text_('name', root.name, 1, 48),
    command: text_('command', root.command, 1, 4096, true),
    image: text_('image', root.image, 1, 512),
    folder: relativeFolder(root.folder),
    resource: { deviceName: text_('resource.deviceName', resource.deviceName, 1, 128), region: text_('resource.region', resource.region, 1, 64) },
    spot: bool('spot', root.spot),
    estimatedSec: int('estimatedSec', root.estimatedSec, 1, 86_400),
    timeoutSec: int('timeoutSec', root.timeoutSec, 1, 7 * 86_400),
    completions: int('completions', root.completions ?? 1, 1, 100),
    parallelism: int('parallelism', root.parallelism ?? 1, 1, 20),
    indexed: root.indexed === undefined ? false : bool('indexed', root.indexed),
    retries: int('retries', root.retries ?? 0, 0, 10),
    env: envItems.map((item, index) => {
      const entry = object(`env[${index}]`, item);
      const name = text_(`env[${index}].name`, entry.name, 1, 128);
      if (!ENV_NAME.test(name)) throw new RunConfigError(`env[${index}].name`, 'run.envName');
      if (SECRET_NAME.test(name)) throw new RunConfigError(`env[${index}].name`, 'run.envSecret');
      return { name, value: text_(`env[${index}].value`, entry.value, 0, 4096, true) };
    }),
    volume: {
      storageId: int('volume.storageId', volume.storageId, 1, Number.MAX_SAFE_INTEGER),
      targetDir: absoluteDir('volume.targetDir', volume.targetDir),
      remoteDir: absoluteDir('volume.remoteDir', volume.remoteDir),
    },
  };
  if (config.parallelism > config.completions) throw new RunConfigError('parallelism', 'run.parallelism');
  if (config.spot && config.estimatedSec >= config.timeoutSec) throw new RunConfigError('estimatedSec', 'run.estimated');
  return config;
}

export function serializeRunConfig(config: RunConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

function object(field: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RunConfigError(field, 'run.object');
  return value as Record<string, unknown>;
}

function array(field: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new RunConfigError(field, 'run.array');
  return value;
}

/** C0 and C1 controls; a command or an env value may hold tabs and line breaks, a name or a path none. */
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const CONTROL_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

function text_(field: string, value: unknown, min: number, max: number, lines = false): string {
  if (typeof value !== 'string') throw new RunConfigError(field, 'run.string');
  if (value.length < min || value.length > max) throw new RunConfigError(field, 'run.length', min, max);
  if ((lines ? CONTROL_BUT_LINES : CONTROL).test(value)) throw new RunConfigError(field, 'run.control');
  return value;
}

function int(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) throw new RunConfigError(field, 'run.wholeNumber', min, max);
  return value;
}

function bool(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new RunConfigError(field, 'run.boolean');
  return value;
}

function relativeFolder(value: unknown): string {
  const folder = value === undefined ? '' : text_('folder', value, 0, 1024);
  const parts = folder.split('/').filter((part) => part !== '' && part !== '.');
  if (folder.startsWith('/') || parts.includes('..')) throw new RunConfigError('folder', 'run.folder');
  return parts.join('/');
}

function absoluteDir(field: string, value: unknown): string {
  const dir = text_(field, value, 1, 1024);
  if (!dir.startsWith('/') || dir.split('/').includes('..')) throw new RunConfigError(field, 'run.absolute');
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
}
