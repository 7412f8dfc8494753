// Secret references in a spec: resolved only when a body is built to be sent, never written back to
// the file, never shown. Env text is the platform's one string of dotenv-style KEY=VALUE lines (the
// create wizard sends the same form).

import type { EnvValue, SecretRef } from './types';

/** Looks a reference up: SecretStorage for {secret}, the process environment for {env}; undefined when unset. */
export type SecretResolver = (ref: SecretRef) => Promise<string | undefined>;

export function refText(ref: SecretRef): string {
  return 'secret' in ref ? `«secret: ${ref.secret}»` : `«env: ${ref.env}»`;
}

export interface ResolvedEnv {
  /** NAME → value, secrets resolved. */
  values: Record<string, string>;
  /** References that have no value. */
  missing: SecretRef[];
}

export async function resolveEnv(env: Record<string, EnvValue> | undefined, resolve: SecretResolver): Promise<ResolvedEnv> {
  const values: Record<string, string> = {};
  const missing: SecretRef[] = [];
  for (const [name, value] of Object.entries(env ?? {})) {
    if (typeof value === 'string') values[name] = value;
    else {
      const resolved = await resolve(value);
      if (resolved === undefined) missing.push(value);
      else values[name] = resolved;
    }
  }
  return { values, missing };
}

/** NAME → value as the platform's env string; null when empty. Values with a newline are refused by the caller. */
export function formatEnvText(values: Record<string, string>): string | null {
  const entries = Object.entries(values);
  return entries.length === 0 ? null : entries.map(([name, value]) => `${name}=${value}`).join('\n');
}

/** The platform's env string → NAME → value (lines or ';'-separated pairs; text without '=' is kept under ""). Linear. */
export function parseEnvText(text: string | null | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  if (!text) return values;
  let parts = text.split(/\r?\n/);
  // One line with ';' between KEY=VALUE pairs is the wizard's one-line form; a lone value with ';' stays whole.
  if (parts.length === 1 && text.includes(';') && text.split(';').every((pair) => pair.trim() === '' || pair.indexOf('=') > 0)) parts = text.split(';');
  for (const part of parts) {
    const pair = part.trim();
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    if (equals <= 0) values[''] = values[''] === undefined ? pair : `${values['']};${pair}`;
    else values[pair.slice(0, equals).trim()] = pair.slice(equals + 1).trim();
  }
  return values;
}

/** A name whose value is likely a credential (HF_TOKEN, OPENAI_API_KEY, DB_PASSWORD, …). */
export function looksSecret(name: string, value: string): boolean {
  if (/(token|secret|passw(or)?d|pwd|api_?key|access_?key|private|credential|auth)/i.test(name)) return true;
  return /^(hf_|sk-|ghp_|github_pat_|xox[abp]-|AKIA)[A-Za-z0-9_-]{8,}/.test(value);
}
