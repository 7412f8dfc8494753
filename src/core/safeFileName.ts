// The one way a name from the platform or the workspace (a volume, a task, a job, a workspace folder)
// becomes a local file or folder name, or one segment of a run folder on a volume (docs/security.md,
// "Names from a server"). Letters and digits of every script stay as they are (`训练` and `实验` stay two
// names); what a file system or a terminal reads specially becomes "-": separators, the characters
// Windows refuses, control and format characters. A name left with only dots, spaces and "-" takes the
// fallback; Windows device names get a "_" in front. Linear in the name.

/** Separators, what Windows refuses in a name, controls (C0, DEL, C1), format characters (bidi overrides, zero-width), line and paragraph separators, lone surrogates. */
const UNSAFE_RUN = /[/\\:*?"<>|\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]+/gu;
/** Windows reads these as devices whatever the extension ("con.txt"). */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
const NOTHING_LEFT = /^[-.\s]*$/;
const EDGE_SPACE = /^\s+|\s+$/g;
/** Windows drops trailing dots and spaces, so "a." and "a" would be one file there. */
const TRAILING_DOTS = /[.\s]+$/;

/** At most this many UTF-8 bytes by default: room for a suffix like ".task.json" within 255. */
export const SAFE_NAME_MAX_BYTES = 120;

/** `name` as one safe path segment, or `fallback` (itself made safe) when nothing usable is left. */
export function safeFileName(name: string, fallback: string, maxBytes = SAFE_NAME_MAX_BYTES): string {
  const made = clean(name, maxBytes);
  if (made !== '') return made;
  return clean(fallback, maxBytes) || 'unnamed';
}

function clean(name: string, maxBytes: number): string {
  let text = name.replace(UNSAFE_RUN, '-').replace(EDGE_SPACE, '');
  text = cutToBytes(text, maxBytes).replace(TRAILING_DOTS, '');
  // Nothing but dots, spaces and replaced characters: nothing of the name is left to tell it apart.
  if (NOTHING_LEFT.test(text)) return '';
  if (DEVICE_NAME.test(text)) text = cutToBytes(`_${text}`, maxBytes).replace(TRAILING_DOTS, '');
  return text;
}

/** The longest prefix of `text` (whole code points) of at most `maxBytes` UTF-8 bytes. */
function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}
