// What a task update changes: task update overwrites the whole task on the platform, so the user
// sees every changed field before sending. A structural diff of two JSON values, as paths
// ("services[0].env") with the value before and after; linear in the size of both, capped.

import type { TaskDetail, TaskUpdateBody } from '../compute/api';

export interface ConfigChange {
  path: string;
  before: unknown;
  after: unknown;
}

const MAX_CHANGES = 200;
const MAX_DEPTH = 32;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The changed paths between `before` and `after` (added and removed keys included), at most 200. */
export function configDiff(before: unknown, after: unknown): { changes: ConfigChange[]; truncated: boolean } {
  const changes: ConfigChange[] = [];
  let truncated = false;
  const add = (change: ConfigChange): void => {
    if (changes.length < MAX_CHANGES) changes.push(change);
    else truncated = true;
  };
  const walk = (a: unknown, b: unknown, path: string, depth: number): void => {
    if (truncated) return;
    if (depth > MAX_DEPTH) {
      if (JSON.stringify(a) !== JSON.stringify(b)) add({ path, before: a, after: b });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const length = Math.max(a.length, b.length);
      for (let index = 0; index < length; index++) walk(a[index], b[index], `${path}[${index}]`, depth + 1);
      return;
    }
    if (isObject(a) && isObject(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) walk(a[key], b[key], path ? `${path}.${key}` : key, depth + 1);
      return;
    }
    // === (not Object.is): -0 and 0 are the same JSON number.
    if (a !== b) add({ path: path || '(root)', before: a, after: b });
  };
  walk(before, after, '', 0);
  return { changes, truncated };
}

/** One line per change for a confirmation: `services[0].env: "A=1" → "A=2"` (values shortened). */
export function describeChange(change: ConfigChange, maxValueChars = 60): string {
  const show = (value: unknown): string => {
    if (value === undefined) return '(absent)';
    const text = JSON.stringify(value) ?? String(value);
    return text.length > maxValueChars ? `${text.slice(0, maxValueChars - 1)}…` : text;
  };
  return `${change.path}: ${show(change.before)} → ${show(change.after)}`;
}

/** Fields the platform fills in; edits to them are not sent as changes of the configuration. */
const READ_ONLY = new Set(['status', 'runing_points', 'billing_points', 'billing_value', 'forecast_value', 'namespace', 'create_time']);

export type UpdateReview = { kind: 'invalid'; message: string } | { kind: 'unchanged' } | { kind: 'changes'; body: TaskUpdateBody; lines: string[]; truncated: boolean };

/** Checks the edited text against the original: parse, keep the task id, list the changes. */
export function reviewUpdate(original: TaskDetail, editedText: string): UpdateReview {
  let edited: unknown;
  try {
    edited = JSON.parse(editedText);
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
  if (typeof edited !== 'object' || edited === null || Array.isArray(edited)) return { kind: 'invalid', message: 'The configuration must be a JSON object.' };
  const body = { ...(edited as Record<string, unknown>), task_id: original.task_id } as TaskUpdateBody;
  const strip = (value: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(value).filter(([key]) => !READ_ONLY.has(key)));
  const { changes, truncated } = configDiff(strip(original as unknown as Record<string, unknown>), strip(body));
  if (changes.length === 0) return { kind: 'unchanged' };
  return { kind: 'changes', body, lines: changes.map((change) => describeChange(change)), truncated };
}

