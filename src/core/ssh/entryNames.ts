// Names an SFTP server lists (a volume's, a machine's) are untrusted paths (docs/security.md, "Names from a server"): a name is
// used only when it is one plain path segment. `.`/`..` (and names of dots and spaces only, which Windows
// reads as them), `/`, `\`, NUL and the C0/C1 control characters are refused; such an entry is skipped
// and named in a warning through `escapedName`, never used. Every local path built from such names is
// also resolved and checked to stay under its destination (`localPathUnder`), the one check each
// writer of downloaded files goes through.

import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { coreText } from '../errors';
import { SftpFileError } from './errors';

/** C0 controls, DEL and C1 controls, plus the two separators. */
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f/\\]/;
/** Only dots and white space: ".", "..", and what Windows trims to them ("... ", ". ."). */
const DOTS_ONLY = /^[.\s]*$/;
/** Longer names are cut when shown (an SFTP name can be as long as a packet). */
const SHOWN_NAME_CHARS = 80;

/** Whether `name` can be used as one path segment (a file or folder inside the folder that listed it). */
export function isSafeEntryName(name: string): boolean {
  return name.length > 0 && !DOTS_ONLY.test(name) && !UNSAFE_CHARACTER.test(name);
}

/**
 * `name` for a warning: control characters, separators' look-alike `\`, quotes and the bidirectional
 * overrides written as escapes (`\u0000`), cut to 80 characters, in double quotes. Linear in the name.
 */
export function escapedName(name: string): string {
  const cut = name.length > SHOWN_NAME_CHARS ? name.slice(0, SHOWN_NAME_CHARS) : name;
  let shown = '';
  for (const char of cut) {
    const code = char.codePointAt(0) as number;
    const escape = code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || char === '\\' || char === '"';
    shown += escape ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return `"${shown}${name.length > SHOWN_NAME_CHARS ? '…' : ''}"`;
}

/** Names skipped in one listing or walk: the first few escaped for a warning, and how many in all. */
export class SkippedNames {
  static readonly SHOWN = 20;
  private readonly shown: string[] = [];
  private total = 0;

  add(name: string, folder: string): void {
    this.total++;
    if (this.shown.length < SkippedNames.SHOWN) this.shown.push(`${folder === '/' ? '' : folder}/${escapedName(name)}`);
  }

  get count(): number {
    return this.total;
  }

  /** The escaped names (with their folder), at most `SHOWN` of them. */
  get names(): readonly string[] {
    return this.shown;
  }

  merge(other: SkippedNames): void {
    for (const name of other.shown) if (this.shown.length < SkippedNames.SHOWN) this.shown.push(name);
    this.total += other.total;
  }
}

/**
 * The local path of `segments` (names from the volume) under `root`, resolved; throws when it would
 * not stay strictly under `root` (a name the listing should have refused, or a segment that resolves
 * upwards). No segments: `root` itself (a single file downloaded to the path the user chose).
 */
export function localPathUnder(root: string, segments: readonly string[]): string {
  const base = path.resolve(root);
  if (segments.length === 0) return base;
  const target = path.resolve(base, ...segments);
  if (!segments.every(isSafeEntryName) || !strictlyUnder(base, target)) throw outside(base, segments.map(escapedName).join('/'));
  return target;
}

/**
 * After the folders of `target` were made: its folder, with links on this disk resolved, must still be
 * `root` or under it (a link already in the destination is not a way out either).
 */
export async function assertRealFolderUnder(root: string, target: string): Promise<void> {
  const realRoot = await realpath(root);
  const realFolder = await realpath(path.dirname(target));
  if (realFolder !== realRoot && !strictlyUnder(realRoot, realFolder)) throw outside(path.resolve(root), escapedName(path.basename(target)));
}

function strictlyUnder(base: string, target: string): boolean {
  const relative = path.relative(base, target);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function outside(root: string, shown: string): SftpFileError {
  return new SftpFileError('outside-destination', coreText('nas.outsideDestination', shown, root), shown);
}
