// A short, printable excerpt of a response body (HTML error pages, proxies, gateways), made in one
// left-to-right pass: server text full of unclosed `<`, `<script` or `<style` must not cost more than
// reading it once. The scan stops as soon as the excerpt is full.

/** Longest body prefix an excerpt looks at; an error page's visible text starts well before this. */
export const EXCERPT_SCAN_LIMIT = 256 * 1024;

/** The head of a body that an excerpt reads: mask secrets in this, not in a body of many megabytes. */
export function excerptSource(body: string): string {
  return body.length > EXCERPT_SCAN_LIMIT ? body.slice(0, EXCERPT_SCAN_LIMIT) : body;
}

function isSpace(code: number): boolean {
  // The characters of the regex class \s.
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether `text` has `word` (lower-case ASCII) at `at`, ignoring ASCII case. */
function hasWordAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let index = 0; index < word.length; index++) {
    if ((text.charCodeAt(at + index) | 0x20) !== word.charCodeAt(index)) return false;
  }
  return true;
}

/** Finds `</name` (any case) from `from`; -1 when there is none. */
function findClosing(text: string, from: number, name: string): number {
  for (let at = text.indexOf('</', from); at !== -1; at = text.indexOf('</', at + 2)) {
    if (hasWordAt(text, at + 2, name)) return at;
  }
  return -1;
}

/**
 * The visible text of `body`: scripts, styles and tags removed, whitespace runs collapsed to one space,
 * trimmed, cut at `max` characters (with "…"). Linear in the body, and reads at most EXCERPT_SCAN_LIMIT.
 */
export function bodyExcerpt(body: string, max = 200): string {
  const text = excerptSource(body);
  let out = '';
  let pendingSpace = false;
  // Once a search for a closing token failed, it fails from every later position too: never search again.
  const noClosing = { script: false, style: false, tag: false };
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 60 /* < */) {
      const skipTo = skipMarkup(text, index, noClosing);
      if (skipTo !== -1) {
        pendingSpace = out.length > 0;
        index = skipTo;
        continue;
      }
    }
    if (isSpace(code)) {
      pendingSpace = out.length > 0;
      index++;
      continue;
    }
    if (pendingSpace) {
      out += ' ';
      pendingSpace = false;
    }
    out += text[index];
    index++;
    if (out.length > max) return `${out.slice(0, max)}…`;
  }
  return out;
}

/** Where the markup starting at `at` ends (exclusive), or -1 when the `<` is plain text. */
function skipMarkup(text: string, at: number, noClosing: { script: boolean; style: boolean; tag: boolean }): number {
  for (const name of ['script', 'style'] as const) {
    if (!noClosing[name] && hasWordAt(text, at + 1, name)) {
      const closing = findClosing(text, at + 1 + name.length, name);
      if (closing === -1) {
        noClosing[name] = true;
        break;
      }
      const end = text.indexOf('>', closing);
      return end === -1 ? text.length : end + 1;
    }
  }
  if (noClosing.tag) return -1;
  const end = text.indexOf('>', at + 1);
  if (end === -1) {
    noClosing.tag = true;
    return -1;
  }
  // `<>` is text, as the pattern <[^>]+> had it.
  return end === at + 1 ? -1 : end + 1;
}

/** Longest server message an error carries (the rest is in no message, log or view). */
export const MESSAGE_EXCERPT_CHARS = 500;

/**
 * A server's message, cut to `max` characters with "…". Mask secrets before cutting (on
 * `messageSource(text)`), so a secret is never half shown.
 */
export function capMessage(text: string, max = MESSAGE_EXCERPT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The head of a message that capMessage can keep, with room for a secret that straddles the cut. */
export function messageSource(text: string, max = MESSAGE_EXCERPT_CHARS): string {
  const room = max + 8192;
  return text.length > room ? text.slice(0, room) : text;
}
