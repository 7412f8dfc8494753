// Where each env value of a spec comes from, and the rule for reading this machine's environment.
// A spec file is workspace content (it comes with `git clone`), so it decides nothing unseen: every
// value's source is listed for the confirmation, and an {"env": NAME} reference reads the process
// environment only for names the user allowed in their own settings, never a workspace's
// (docs/security.md "Workspace content is untrusted").

import type { SecretResolver } from './secrets';
import type { EnvValue, SecretRef, Spec } from './types';
export { isEnvironmentName } from './types';

export type EnvSource = { kind: 'file'; value: string } | { kind: 'secret'; name: string } | { kind: 'environment'; name: string };

export interface EnvEntry {
  /** The service (container) the variable is set in. */
  service: string;
  /** The variable's name in the container; undefined for the registry password. */
  name?: string;
  source: EnvSource;
}

export function sourceOf(value: EnvValue): EnvSource {
  if (typeof value === 'string') return { kind: 'file', value };
  return 'secret' in value ? { kind: 'secret', name: value.secret } : { kind: 'environment', name: value.env };
}

/** Every env value and registry password of a spec, in file order, with its source. */
export function envEntries(spec: Spec): EnvEntry[] {
  const entries: EnvEntry[] = [];
  for (const service of spec.services) {
    for (const [name, value] of Object.entries(service.env ?? {})) entries.push({ service: service.name, name, source: sourceOf(value) });
    const password = 'registry' in service ? service.registry?.password : undefined;
    if (password) entries.push({ service: service.name, source: sourceOf(password) });
  }
  if (spec.kind === 'task' && spec.registry) entries.push({ service: spec.services[0]?.name ?? '', source: sourceOf(spec.registry.password) });
  return entries;
}

/** The environment variables a spec reads that are not in `allowed`: distinct, in file order. */
export function environmentNotAllowed(spec: Spec, allowed: ReadonlySet<string>): string[] {
  const refused = new Set<string>();
  for (const entry of envEntries(spec)) if (entry.source.kind === 'environment' && !allowed.has(entry.source.name)) refused.add(entry.source.name);
  return [...refused];
}

/**
 * The resolver for spec references: {secret} from the user's stored spec secrets; {env} from this
 * machine's environment only when `allowed` says so (otherwise never read, so it stays missing).
 */
export function specResolver(source: {
  storedSecret(name: string): PromiseLike<string | undefined>;
  environment(name: string): string | undefined;
  allowed(name: string): boolean;
}): SecretResolver {
  return async (ref: SecretRef) => {
    if ('secret' in ref) return source.storedSecret(ref.secret);
    if (!source.allowed(ref.env)) return undefined;
    const value = source.environment(ref.env);
    return value === undefined || value === '' ? undefined : value;
  };
}
