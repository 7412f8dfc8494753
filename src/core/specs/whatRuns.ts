// What a spec file will run and send, per service, for the confirmation: image, command, each env value
// with its source, and the mounts. Every value is workspace content: the editor shows it through
// shownValue (src/core/shownValue.ts) so nothing can hide in it (docs/security.md).

import { sourceOf, type EnvEntry } from './envSources';
import { shownValue } from '../shownValue';
export { shownValue };
import type { Spec } from './types';

export interface ServiceFacts {
  name: string;
  image: string;
  /** Command and arguments as one shown line; undefined when the image's own entry point runs. */
  command?: string;
  env: EnvEntry[];
  mounts: { kind: 'nas' | 'storage' | 'sharedStorage'; id: number; targetDir: string }[];
}

/** One argument as a shell would need it to be read: bare when plain, else JSON-quoted. */
function argText(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

export function commandLine(command: string | readonly string[] | null | undefined, args: readonly string[] | undefined): string | undefined {
  const parts = [...(typeof command === 'string' ? (command === '' ? [] : [command]) : (command ?? []).map(argText)), ...(args ?? []).map(argText)];
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** The facts of each service of a spec, in file order. */
export function specFacts(spec: Spec): ServiceFacts[] {
  return spec.services.map((service, index) => {
    const env: EnvEntry[] = Object.entries(service.env ?? {}).map(([name, value]) => ({ service: service.name, name, source: sourceOf(value) }));
    const password = 'registry' in service ? service.registry?.password : index === 0 && spec.kind === 'task' ? spec.registry?.password : undefined;
    if (password) env.push({ service: service.name, source: sourceOf(password) });
    const command = commandLine(service.command, service.args);
    return {
      name: service.name,
      image: service.image,
      ...(command === undefined ? {} : { command }),
      env,
      mounts: [
        ...(service.nas ?? []).map((mount) => ({ kind: 'nas' as const, id: mount.volumeId, targetDir: mount.targetDir })),
        ...(service.storage ?? []).map((mount) => ({ kind: 'storage' as const, id: mount.storageId, targetDir: mount.targetDir })),
        ...(service.sharedStorage ?? []).map((mount) => ({ kind: 'sharedStorage' as const, id: mount.storageId, targetDir: mount.targetDir })),
      ],
    };
  });
}

/** Longer than any value a spec may hold (the spec size cap bounds the lines). */
const WHOLE = 1_000_000;

/**
 * The same facts in plain English lines for the agent tools and the MCP server (the editor words its
 * own, vscode/specs/whatRunsLines.ts): each service's image, command, env variables with their source
 * and mounts, every workspace value escaped. The tools never read this machine's environment, so an
 * {"env"} reference is named as one that stays unset.
 */
export function describeSpecFacts(spec: Spec): string[] {
  // Whole values: a confirmation that cuts one would hide its end (the tools refuse what is too long to show).
  const shown = (text: string) => shownValue(text, WHOLE);
  const lines: string[] = [];
  for (const service of specFacts(spec)) {
    lines.push(`Service "${shown(service.name)}": image ${shown(service.image)}`);
    lines.push(service.command === undefined ? "  Command: the image's own entry point" : `  Command: ${shown(service.command)}`);
    for (const { name, source } of service.env) {
      const what = name === undefined ? 'Registry password' : `Env ${shown(name)}`;
      if (source.kind === 'secret') lines.push(`  ${what} ← stored spec secret "${shown(source.name)}"`);
      else if (source.kind === 'environment') lines.push(`  ${what} ← this machine's environment variable ${shown(source.name)} (agent tools never read it: it stays unset)`);
      else lines.push(`  ${what} = ${JSON.stringify(shown(source.value))} (written in the file)`);
    }
    for (const mount of service.mounts) {
      const kind = mount.kind === 'nas' ? 'NAS volume' : mount.kind === 'storage' ? 'Storage' : 'Shared storage';
      lines.push(`  ${kind} ${mount.id} mounted at ${shown(mount.targetDir)}`);
    }
  }
  return lines;
}
