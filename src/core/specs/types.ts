// The spec file format (schemas/compute-spec.schema.json is its source): a deployment task or a batch
// job as a reviewable file, in readable forms (GPU model + count, env as a map, memory in Mi, secrets
// as references). The types are generated from the schema; the validator guarantees a parsed spec matches them.

import type { EnvMap, JobSpec, SecretRef, TaskSpec } from './specTypes.generated';

/** Larger files are refused before anything reads them further (a spec is a few KB). */
export const MAX_SPEC_CHARS = 512 * 1024;

// The shapes of a spec are generated from the schema (docs/shapes.md): never written here by hand.
export type {
  EnvMap,
  HealthChecks,
  JobServiceSpec,
  JobSpec,
  Mount,
  MountByName,
  NasMount,
  Probe,
  ResourceSelector,
  SecretRef,
  TaskServiceSpec,
  TaskSpec,
} from './specTypes.generated';
/** A secret is never inline: a SecretStorage name or an environment variable name. */
export type EnvValue = EnvMap[string];

export type Spec = TaskSpec | JobSpec;

export type SpecFormat = 'json' | 'yaml';

/** A path into the spec: property names and array indexes, e.g. ['services', 0, 'env']. */
export type SpecPath = readonly (string | number)[];

export interface Position {
  /** 0-based, as the editor counts. */
  line: number;
  character: number;
}

export interface SpecDiagnostic {
  start: Position;
  end: Position;
  message: string;
  severity: 'error' | 'warning' | 'info';
  /** Where in the spec, for callers that map to other things ("services[0].image"). */
  path: string;
  /**
   * What found it: 'syntax' (the parser), the JSON Schema keyword ('additionalProperties', 'type',
   * …, 'x-unit'), or absent for rules outside the schema. The editor leaves to its own JSON
   * validation the ones it reports too (see `editorRepeats`).
   */
  origin?: string;
  /** A Quick Fix: the text to put in place of [start, end] ("image" for a typo'd key, 16384 for "16GB"). */
  fix?: { kind: 'rename' | 'mebibytes'; text: string; value: string };
}

/** "services[0].env.HF_TOKEN" from ['services', 0, 'env', 'HF_TOKEN']. */
export function formatPath(path: SpecPath): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  return text;
}

/** The format a file name implies: *.task.yaml / *.job.yml → yaml; *.task.json / *.job.json → json. */
export function specFormatOf(fileName: string): SpecFormat | undefined {
  const lower = fileName.toLowerCase();
  if (/\.(task|job)\.json$/.test(lower)) return 'json';
  if (/\.(task|job)\.ya?ml$/.test(lower)) return 'yaml';
  return undefined;
}

export function isSecretRef(value: unknown): value is SecretRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (typeof (value as Record<string, unknown>).secret === 'string' || typeof (value as Record<string, unknown>).env === 'string');
}

/** A variable name the environment allow-list can hold (the names a shell accepts). */
export function isEnvironmentName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name);
}
