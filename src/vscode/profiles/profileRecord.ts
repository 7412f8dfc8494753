// Runtime validation of the non-secret profile records kept in settings (users can hand-edit them),
// and the naming of everything stored per profile.

import type { Environment, Profile, SecretKind } from '../services';
import { SECRET_KINDS } from '../../core/secretKinds';

export { SECRET_KINDS, SECRET_LABELS } from '../../core/secretKinds';

export const ENVIRONMENTS: readonly Environment[] = ['dev', 'test', 'prod', 'sandbox'];

/** SecretStorage key of one secret of one profile. */
export function secretStorageKey(profileId: string, kind: SecretKind): string {
  return `computeToolkit/${profileId}/${kind}`;
}

/** The inverse of secretStorageKey, for SecretStorage change events; undefined for foreign keys. */
export function parseSecretStorageKey(key: string): { profileId: string; kind: SecretKind } | undefined {
  const match = /^computeToolkit\/(.+)\/([A-Za-z]+)$/.exec(key);
  if (!match) return undefined;
  const [, profileId, kind] = match;
  if (profileId === undefined || !isSecretKind(kind)) return undefined;
  return { profileId, kind };
}

export function isSecretKind(value: unknown): value is SecretKind {
  return typeof value === 'string' && (SECRET_KINDS as readonly string[]).includes(value);
}

export function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** A profile read from settings, or a reason why the entry cannot be used (for the log). */
/* eslint-disable no-restricted-syntax -- the reasons go to the log only (profileStore.readSettings) */
export function parseProfile(value: unknown): Profile | string {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const record = value as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const field = record[key];
    return typeof field === 'string' && field.trim() !== '' ? field.trim() : undefined;
  };
  const id = text('id');
  const label = text('label');
  const environment = record.environment;
  const mode = record.mode;
  const computeBaseUrl = text('computeBaseUrl');
  const modelApiBaseUrl = text('modelApiBaseUrl');
  const consoleUrl = text('consoleUrl');
  if (!id) return 'missing "id"';
  if (!label) return `profile "${id}": missing "label"`;
  if (!isEnvironment(environment)) return `profile "${id}": "environment" must be one of ${ENVIRONMENTS.join(', ')}`;
  if (mode !== 'token' && mode !== 'rsa') return `profile "${id}": "mode" must be "token" or "rsa"`;
  if (!computeBaseUrl || !modelApiBaseUrl || !consoleUrl) return `profile "${id}": every URL field is required`;
  return { id, label, environment, mode, computeBaseUrl, modelApiBaseUrl, consoleUrl };
}
/* eslint-enable no-restricted-syntax */

/** A readable, stable id for a new profile: slug of the label plus a short unique suffix. */
export function newProfileId(label: string, taken: Iterable<string>): string {
  const slug =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 'profile';
  const used = new Set(taken);
  for (let attempt = 0; ; attempt++) {
    const suffix = (Date.now() + attempt).toString(36).slice(-5);
    const id = `${slug}-${suffix}`;
    if (!used.has(id)) return id;
  }
}

/**
 * The profile as the status bar names it: its label, then its key mode unless the label already names
 * it ("Sandbox (RSA)", not "Sandbox (RSA) · RSA"). `modeName` is the shown (maybe translated) mode.
 */
export function statusBarLabel(label: string, mode: Profile['mode'], modeName: string): string {
  const words = label.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  // Chinese has no spaces between words: a Han mode name counts where it appears.
  const names = [mode, modeName.toLowerCase(), ...(mode === 'token' ? ['令牌'] : [])];
  const named = names.some((name) => words.includes(name) || (/\p{Script=Han}/u.test(name) && label.includes(name)));
  return named ? label : `${label} · ${modeName}`;
}
