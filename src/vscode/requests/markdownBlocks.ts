// Markdown building blocks for the request documents (Sign Request, responses, comparisons).

/** A fenced block whose fence is longer than any backtick run inside, so no content can close it. */
export function fence(language: string, text: string): string {
  let longest = 2;
  let run = 0;
  for (const char of text) {
    run = char === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}
