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

function parsedRoot(text: string): Record<string, unknown> {
  if (text.length > MAX_FILE_CHARS) throw new RunConfigError('the file', 'run.tooLarge', MAX_FILE_CHARS);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new RunConfigError('the file', 'run.notJson');
  }
  const root = object('the file', raw);
  if (root.version !== 1) throw new RunConfigError('version', 'run.version');
  return root;
}

function envOf(value: unknown): { name: string; value: string }[] {
  const envItems = value === undefined ? [] : array('env', value);
  if (envItems.length > 64) throw new RunConfigError('env', 'run.tooManyEnv');
  return envItems.map((item, index) => {
    const entry = object(`env[${index}]`, item);
    const name = text_(`env[${index}].name`, entry.name, 1, 128);
    if (!ENV_NAME.test(name)) throw new RunConfigError(`env[${index}].name`, 'run.envName');
    if (SECRET_NAME.test(name)) throw new RunConfigError(`env[${index}].name`, 'run.envSecret');
    return { name, value: text_(`env[${index}].value`, entry.value, 0, 4096, true) };
  });
}

export function parseRunConfig(text: string): RunConfig {
  const root = parsedRoot(text);
  if (root.target !== undefined && root.target !== 'job') throw new RunConfigError('target', 'run.target');
  const resource = object('resource', root.resource);
  const volume = object('volume', root.volume);
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
    env: envOf(root.env),
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

/**
 * run.json for a rented machine (docs/machines.md "Run on a machine"): the target is one of the profile's
 * own Serving machines, checked against the platform before anything is sent, and shown in the review.
 * `remoteDir` is a folder under the login's home (never absolute, never `..`).
 */
export interface MachineRunConfig {
  version: 1;
  target: 'machine';
  name: string;
  command: string;
  folder: string;
  env: { name: string; value: string }[];
  machine: { deviceId: number; remoteDir: string };
}

type TargetSettings = { kind: 'job'; config: RunConfig } | { kind: 'machine'; config: MachineRunConfig };

/** The run's target at the top; `other`: the other target's settings, kept for a switch back (`otherTarget`). */
export type RunFile = TargetSettings & { other?: TargetSettings };

/** run.json as either target: `"target": "machine"` is a machine run, no target (or "job") a batch job. */
export function parseRunFile(text: string): RunFile {
  const root = parsedRoot(text);
  const settings = parseTarget(text, root);
  if (root.otherTarget === undefined) return settings;
  const otherRoot = { ...object('otherTarget', root.otherTarget), otherTarget: undefined };
  const other = parseTarget(JSON.stringify(otherRoot), otherRoot);
  if (other.kind === settings.kind) throw new RunConfigError('otherTarget', 'run.otherTarget');
  return { ...settings, other };
}

/** The settings run.json keeps for `kind`: the run's own, or the other target's kept beside them. */
export function settingsFor<K extends keyof TargetConfigs>(file: RunFile | undefined, kind: K): TargetConfigs[K] | undefined {
  if (file?.kind === kind) return file.config as TargetConfigs[K];
  if (file?.other?.kind === kind) return file.other.config as TargetConfigs[K];
  return undefined;
}

interface TargetConfigs {
  job: RunConfig;
  machine: MachineRunConfig;
}

/**
 * run.json's text for a run on `config`'s target, keeping the other target's settings from the file it
 * replaces (`existing`), so switching job → machine → job brings back the image, GPU, env and the rest.
 */
export function runFileText(config: RunConfig | MachineRunConfig, existing: RunFile | undefined): string {
  const kind = 'target' in config && config.target === 'machine' ? 'machine' : 'job';
  const other = settingsFor(existing, kind === 'machine' ? 'job' : 'machine');
  return serializeRunConfig(other === undefined ? config : { ...config, otherTarget: other });
}

function parseTarget(text: string, root: Record<string, unknown>): TargetSettings {
  if (root.target === undefined || root.target === 'job') return { kind: 'job', config: parseRunConfig(text) };
  if (root.target !== 'machine') throw new RunConfigError('target', 'run.target');
  const machine = object('machine', root.machine);
  const remoteDir = machineDir(machine.remoteDir);
  return {
    kind: 'machine',
    config: {
      version: 1,
      target: 'machine',
      name: text_('name', root.name, 1, 48),
      command: text_('command', root.command, 1, 4096, true),
      folder: relativeFolder(root.folder),
      env: envOf(root.env),
      machine: { deviceId: int('machine.deviceId', machine.deviceId, 1, Number.MAX_SAFE_INTEGER), remoteDir },
    },
  };
}

export function serializeRunConfig(config: (RunConfig | MachineRunConfig) & { otherTarget?: RunConfig | MachineRunConfig }): string {
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

/** A folder under the machine's home: relative, no `..`, no backslash, at least one name. */
function machineDir(value: unknown): string {
  const dir = text_('machine.remoteDir', value, 1, 256);
  const parts = dir.split('/').filter((part) => part !== '' && part !== '.');
  if (dir.startsWith('/') || dir.startsWith('~') || dir.includes('\\') || parts.includes('..') || parts.length === 0) throw new RunConfigError('machine.remoteDir', 'run.machineDir');
  return parts.join('/');
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
