// What a spec file will run and send, per service, for the confirmation: image, command, each env value
// with its source, and the mounts. Every value is workspace content, so it is shown as a reader would
// need to see it to judge it: control, invisible and bidirectional characters are written as \u{…},
// a long run of blanks is counted (nothing can hide past the edge of the dialog), and a value that is
// cut says how much was left out (docs/security.md "Workspace content is untrusted").

import { sourceOf, type EnvEntry } from './envSources';
import type { Spec } from './types';

export interface ServiceFacts {
  name: string;
  image: string;
  /** Command and arguments as one shown line; undefined when the image's own entry point runs. */
  command?: string;
  env: EnvEntry[];
  mounts: { kind: 'nas' | 'storage' | 'sharedStorage'; id: number; targetDir: string }[];
}

/** Characters that would hide or reorder what follows: C0/C1 controls, bidi controls, zero-width marks. */
const HIDDEN = /^[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]$/;

/** `value` as shown in a confirmation: hidden characters escaped, runs of 4+ blanks counted, at most `max` characters. One pass. */
export function shownValue(value: string, max = 200): string {
  // Stops once more than `max` characters are out: each input character is looked at once at most.
  const parts: string[] = [];
  let length = 0;
  let index = 0;
  while (index < value.length && length <= max) {
    const char = value[index]!;
    if (char === ' ' || char === '\t') {
      let run = index + 1;
      while (run < value.length && (value[run] === ' ' || value[run] === '\t')) run++;
      parts.push(run - index >= 4 ? ` ⟨${run - index} blanks⟩ ` : value.slice(index, run));
      length += parts[parts.length - 1]!.length;
      index = run;
    } else {
      const shown = HIDDEN.test(char) ? `\\u{${char.charCodeAt(0).toString(16)}}` : char;
      parts.push(shown);
      length += shown.length;
      index++;
    }
  }
  const visible = parts.join('');
  const rest = value.length - index;
  if (visible.length <= max && rest === 0) return visible;
  return `${visible.slice(0, max)}… (+${Math.max(0, visible.length - max) + rest})`;
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
