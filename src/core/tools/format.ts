// How tool results read in a model's context window: short lines, capped in size, always saying what
// was cut and how to see the rest. Remote text (names, logs) is cut and stripped of control
// characters here, in linear time.

import { maskCredentials } from '../credentialText';
import { maskSecretsIn } from '../log';

/** Default largest result: about 3,000 tokens, a fair share of a small model's context. */
export const RESULT_LIMIT_CHARS = 12_000;

/** Longest single remote value (a name, a URL, an image) shown in a line. */
const FIELD_LIMIT_CHARS = 200;

/** One remote value on one line: control characters become spaces, long values are cut with "…". */
export function field(value: unknown, limit = FIELD_LIMIT_CHARS): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? '';
  const head = text.length > limit ? text.slice(0, limit) : text;
  const clean = head.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return text.length > limit ? `${clean}…` : clean;
}

/**
 * Joins lines until the limit; when lines are left out, ends with a note naming how many and `hint`
 * (how to narrow the query). A single overlong line is cut too.
 */
export function capLines(lines: readonly string[], limit: number, hint: string): string {
  const out: string[] = [];
  // Room for the closing note, so the note itself is never what gets cut.
  const room = limit - 120 - hint.length;
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const isLast = index === lines.length - 1;
    if (used + line.length + 1 > (isLast ? limit : room)) {
      const remaining = lines.length - index;
      if (out.length === 0) out.push(`${line.slice(0, Math.max(0, room))}…`);
      out.push(`[cut: ${remaining} more line(s) not shown to fit the context window; ${hint}]`);
      return out.join('\n');
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

/** The last lines of a log within the limit, with a note saying how many earlier lines were cut. */
export function tailLines(text: string, maxLines: number, limit: number): { text: string; shown: number; total: number } {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  const kept: string[] = [];
  let used = 0;
  for (let index = lines.length - 1; index >= 0 && kept.length < maxLines; index--) {
    const line = (lines[index] as string).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
    const shown = line.length > 2000 ? `${line.slice(0, 2000)}…` : line;
    if (used + shown.length + 1 > limit) break;
    kept.push(shown);
    used += shown.length + 1;
  }
  kept.reverse();
  return { text: kept.join('\n'), shown: kept.length, total };
}

/** Masks any secret a server echoed back (and credentials by their key or in a URL), then applies the overall cap. */
export function finalText(text: string, secrets: readonly string[] | undefined, limit: number): string {
  const masked = maskCredentials(secrets && secrets.length > 0 ? maskSecretsIn(text, secrets) : text);
  if (masked.length <= limit) return masked;
  return `${masked.slice(0, limit - 120)}\n[cut: ${masked.length - limit + 120} more characters not shown to fit the context window]`;
}

/** Memory in MiB as GB for people and models ("24 GB"). */
export function gigabytes(mib: number): string {
  if (!Number.isFinite(mib) || mib <= 0) return '0 GB';
  const gib = mib / 1024;
  return gib >= 10 ? `${Math.round(gib)} GB` : `${Number(gib.toFixed(1))} GB`;
}
