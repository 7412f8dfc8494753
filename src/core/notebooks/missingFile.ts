// Which local file a failed cell wanted (docs/notebooks.md, "Files where the kernel is"): Python's
// FileNotFoundError names it in its value — `[Errno 2] No such file or directory: 'data/train.csv'`. A
// relative path is one the user can upload to the volume (the kernel's working folder); an absolute one,
// or anything odd, is not offered. The value comes from the kernel: bounded, linear, never trusted.

const MAX_VALUE_CHARS = 4_096;
const MAX_PATH_CHARS = 1_024;
const PREFIX = 'No such file or directory: ';

/** The relative path a FileNotFoundError names, normalised to `a/b.csv`; undefined when there is none to offer. */
export function missingRelativeFile(ename: string, evalue: string): string | undefined {
  if (ename !== 'FileNotFoundError') return undefined;
  const value = evalue.slice(0, MAX_VALUE_CHARS).trimEnd();
  const at = value.lastIndexOf(PREFIX);
  if (at < 0) return undefined;
  const quoted = value.slice(at + PREFIX.length);
  const quote = quoted[0];
  if ((quote !== "'" && quote !== '"') || quoted.length < 2 || !quoted.endsWith(quote)) return undefined;
  const raw = quoted.slice(1, -1);
  if (raw.length === 0 || raw.length > MAX_PATH_CHARS) return undefined;
  // Escapes, control characters, a home or an absolute path: not a file next to the notebook.
  if (/[\\\p{Cc}]/u.test(raw) || raw.startsWith('/') || raw.startsWith('~')) return undefined;
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return undefined;
  return parts.join('/');
}
