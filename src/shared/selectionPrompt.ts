// Turns an editor selection (or a whole file) into a chat prompt: a fenced block with the language,
// file name and line range. Over-long code is truncated at a line boundary, and the prompt says so in
// words, so neither the user nor the model is misled about what was sent.

export type SelectionIntent = 'ask' | 'explain' | 'findBugs';

export interface SelectionSource {
  text: string;
  /** VS Code language id (`python`, `typescriptreact`, …). */
  languageId: string;
  /** Workspace-relative path, or the document's title when it has no file. */
  fileName: string;
  /** 1-based first line of `text`. */
  startLine: number;
  /** True when nothing was selected and the whole document is used. */
  wholeFile: boolean;
}

export interface SelectionPrompt {
  text: string;
  /** Set when the user should be told something about the quoted code (whole file used, truncated). */
  notice: string | undefined;
  truncated: boolean;
}

/** VS Code language ids whose Markdown fence name differs. */
const FENCE_LANGUAGE: Record<string, string> = {
  typescriptreact: 'tsx',
  javascriptreact: 'jsx',
  shellscript: 'bash',
  plaintext: '',
  dockercompose: 'yaml',
  jsonc: 'json',
};

export function fenceLanguage(languageId: string): string {
  const mapped = FENCE_LANGUAGE[languageId];
  if (mapped !== undefined) return mapped;
  return /^[A-Za-z0-9_+#.-]{1,40}$/.test(languageId) ? languageId : '';
}

/** A backtick fence longer than any backtick run inside the code, so the code cannot close it. */
export function fenceFor(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function countLines(text: string): number {
  if (text.length === 0) return 1;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  // A trailing newline ends the last line rather than starting a new one.
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Cuts at the last line break within `maxChars` when that keeps at least half, else at `maxChars`. */
export function truncateAtLine(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  // Never split a UTF-16 surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const lineBreak = text.lastIndexOf('\n', end - 1);
  return lineBreak >= maxChars / 2 ? text.slice(0, lineBreak + 1) : text.slice(0, end);
}

/**
 * The prompt's and the notice's words, in the display language (the host passes vscode.l10n.t's; the
 * English below is the default). `{0}`… are filled in order; the instructions also tell the model
 * which language to answer in, since they are the user's message.
 */
export interface SelectionWords {
  line: string; // {0}
  lines: string; // {0}–{1}
  explain: string;
  findBugs: string;
  wholeFileNotice: string;
  /** {0} characters kept, {1} characters in all, {2} lines kept, {3} lines in all. */
  truncatedSelectionNotice: string;
  truncatedFileNotice: string;
  /** The quote's header: {0} the file, {1} the lines; truncated: {2} how many lines in all (a bare number: "line 1 of 1"). */
  header: string;
  truncatedSelectionHeader: string;
  truncatedFileHeader: string;
}

export const ENGLISH_SELECTION_WORDS: SelectionWords = {
  line: 'line {0}',
  lines: 'lines {0}–{1}',
  explain: 'Explain what this code does, step by step, and point out anything surprising.',
  findBugs: 'Find bugs in this code. For each one, give the line, what goes wrong, and a corrected snippet. Say so if you find none.',
  wholeFileNotice: 'Nothing was selected, so the whole file is quoted.',
  truncatedSelectionNotice:
    'The selection was truncated to {0} of {1} characters ({2} of {3}); raise computeToolkit.chat.maxSelectionChars to send more.',
  truncatedFileNotice:
    'The whole file was truncated to {0} of {1} characters ({2} of {3}); raise computeToolkit.chat.maxSelectionChars to send more.',
  header: '{0}, {1}:',
  truncatedSelectionHeader: '{0}, {1} of {2} in the selection (truncated):',
  truncatedFileHeader: '{0}, {1} of {2} in the whole file (truncated):',
};

/** Fills `{0}`, `{1}`… in one pass, so a value containing "{1}" is never filled again. */
function fill(template: string, ...values: string[]): string {
  return template.replace(/\{(\d+)\}/g, (match, index: string) => values[Number(index)] ?? match);
}

function lineRange(words: SelectionWords, first: number, count: number): string {
  return count <= 1 ? fill(words.line, String(first)) : fill(words.lines, String(first), String(first + count - 1));
}

const formatCount = (n: number): string => n.toLocaleString('en-US');

export function buildSelectionPrompt(
  source: SelectionSource,
  intent: SelectionIntent,
  maxChars: number,
  words: SelectionWords = ENGLISH_SELECTION_WORDS,
): SelectionPrompt {
  const code = truncateAtLine(source.text, Math.max(1, Math.floor(maxChars)));
  const truncated = code.length < source.text.length;
  const totalLines = countLines(source.text);
  const shownLines = countLines(code);

  const notices: string[] = [];
  if (source.wholeFile) notices.push(words.wholeFileNotice);
  if (truncated) {
    notices.push(
      fill(
        source.wholeFile ? words.truncatedFileNotice : words.truncatedSelectionNotice,
        formatCount(code.length),
        formatCount(source.text.length),
        lineRange(words, source.startLine, shownLines),
        lineRange(words, source.startLine, totalLines),
      ),
    );
  }

  const fence = fenceFor(code);
  const body = code.endsWith('\n') ? code : `${code}\n`;
  const headerTemplate = !truncated ? words.header : source.wholeFile ? words.truncatedFileHeader : words.truncatedSelectionHeader;
  const header = fill(headerTemplate, `\`${source.fileName}\``, lineRange(words, source.startLine, shownLines), formatCount(totalLines));
  const block = `${header}\n\n${fence}${fenceLanguage(source.languageId)}\n${body}${fence}\n`;

  const instruction = intent === 'explain' ? words.explain : intent === 'findBugs' ? words.findBugs : '';
  // "Ask" leaves the cursor after the quote for the user's question.
  const text = instruction ? `${instruction}\n\n${block}` : `${block}\n`;
  return { text, notice: notices.length > 0 ? notices.join(' ') : undefined, truncated };
}
