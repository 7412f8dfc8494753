// Server text (task, service, node, storage and region names) shown inside a Markdown tooltip must
// stay text: no links, emphasis, headings, images or HTML. No editor API here, so plain-Node tests
// render the result with markdown-it and check it.

/** `text` escaped for Markdown: every punctuation that could start syntax gets a backslash; line breaks become spaces. */
export function markdownText(text: string | number | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|<>~=:&"'$@^%]/g, '\\$&');
}
