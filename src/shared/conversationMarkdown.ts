// Export of a conversation as a Markdown document (Export to Markdown), and usage arithmetic.
// Pure so it is unit-tested on Node and identical wherever it is used.

import type { ChatTurn, ConversationSettings, TokenUsage } from './protocol';
import { NEW_CHAT_TITLE } from './webviewStrings';

export function addUsage(total: TokenUsage | undefined, usage: TokenUsage | undefined): TokenUsage | undefined {
  if (!usage) return total;
  if (!total) return { ...usage };
  return { prompt: total.prompt + usage.prompt, completion: total.completion + usage.completion, total: total.total + usage.total };
}

export function sumUsage(turns: readonly ChatTurn[]): TokenUsage | undefined {
  return turns.reduce<TokenUsage | undefined>((total, turn) => addUsage(total, turn.usage), undefined);
}

export function formatUsage(usage: TokenUsage): string {
  return `${usage.total.toLocaleString('en-US')} tokens (${usage.prompt.toLocaleString('en-US')} prompt + ${usage.completion.toLocaleString('en-US')} completion)`;
}

const STATUS_NOTE: Partial<Record<ChatTurn['status'], string>> = {
  stopped: '_(stopped by the user; the reply is partial)_',
  incomplete: '_(the stream ended early; the reply is incomplete)_',
};

export interface ExportableConversation {
  title: string;
  settings: ConversationSettings;
  turns: readonly ChatTurn[];
}

/** One line of export text: line breaks (CR, LF, and the Unicode line separators) become spaces. */
function oneLine(text: string): string {
  let out = '';
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) {
      out += `${text.slice(from, index)} `;
      from = index + 1;
    }
  }
  return out + text.slice(from);
}

/** Length of the longest run of backticks in `text` (one pass). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) === 96 /* ` */) {
      run++;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  return longest;
}

/**
 * Text of a turn as a fenced block whose fence is longer than any backtick run inside, so nothing in the
 * text (an unclosed fence of a stopped reply, headings, HTML, lists) can end the block or reach the
 * export's own headings: every turn boundary survives, and the text comes back unchanged.
 */
function fenced(text: string, info: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/** Leading spaces of a line (up to 4: four or more make indented code, never a block start). */
function indentOf(line: string): number {
  let index = 0;
  while (index < 4 && line.charCodeAt(index) === 32) index++;
  return index;
}

/** `{char, length}` when `line` (indentation removed) is a fence line of ``` or ~~~. */
function fenceOf(line: string): { char: string; length: number; rest: string } | undefined {
  const char = line[0];
  if (char !== '`' && char !== '~') return undefined;
  let length = 0;
  while (line[length] === char) length++;
  return length >= 3 ? { char, length, rest: line.slice(length) } : undefined;
}

/** Whether `line` (indentation removed) is only `=` or only `-` characters, then spaces: a setext underline. */
function isSetextUnderline(line: string): boolean {
  const char = line[0];
  if (char !== '=' && char !== '-') return false;
  let index = 0;
  while (line[index] === char) index++;
  return line.slice(index).trim() === '';
}

/**
 * A turn's Markdown as the chat renders it, made safe to place between the export's own turn headings:
 * its headings move two levels down (under the turn's `##`), a setext underline no longer makes a
 * heading of the line above, a line starting raw HTML shows as text (the chat renders no HTML, and an
 * unclosed `<!--` or `<pre>` would swallow later turns); a turn with a code fence left open (a reply
 * stopped mid-block) is shown as a source block instead. Code inside fences is kept as is. One pass over the lines.
 */
export function containedMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let open: { char: string; length: number } | undefined;
  let previousBlank = true;
  for (const raw of lines) {
    const indent = indentOf(raw);
    const line = raw.slice(indent);
    if (open) {
      const fence = indent < 4 ? fenceOf(line) : undefined;
      if (fence && fence.char === open.char && fence.length >= open.length && fence.rest.trim() === '') open = undefined;
      out.push(raw);
      previousBlank = false;
      continue;
    }
    if (indent >= 4) {
      out.push(raw);
      previousBlank = raw.trim() === '';
      continue;
    }
    const fence = fenceOf(line);
    if (fence && !(fence.char === '`' && fence.rest.includes('`'))) {
      open = { char: fence.char, length: fence.length };
      out.push(raw);
    } else if (/^#{1,6}(?:[ \t]|$)/.test(line)) {
      let level = 0;
      while (line[level] === '#') level++;
      out.push(`${raw.slice(0, indent)}${'#'.repeat(Math.min(6, level + 2))}${line.slice(level)}`);
    } else if (!previousBlank && isSetextUnderline(line)) {
      out.push(`${raw.slice(0, indent)}\\${line}`);
    } else if (line.startsWith('<')) {
      out.push(`${raw.slice(0, indent)}\\${line}`);
    } else {
      out.push(raw);
    }
    previousBlank = raw.trim() === '';
  }
  // A fence left open (a reply stopped mid-block): the turn as a source block, which no text can escape.
  if (open) return fenced(text, 'markdown');
  return out.join('\n');
}

/**
 * A readable Markdown transcript: metadata, then each turn under its own heading, its text rendered as in
 * the chat (see `containedMarkdown`); notices, partial marks, errors and usage kept. Linear in the
 * conversation size.
 */
export function conversationToMarkdown(conversation: ExportableConversation, exportedAt: Date): string {
  const lines: string[] = [`# ${oneLine(conversation.title)}`, ''];
  lines.push(`- Exported: ${exportedAt.toISOString()}`);
  if (conversation.settings.model) lines.push(`- Model: \`${oneLine(conversation.settings.model).replace(/`/g, "'")}\``);
  lines.push(`- Temperature: ${conversation.settings.temperature}, max tokens: ${conversation.settings.maxTokens}`);
  const usage = sumUsage(conversation.turns);
  if (usage) lines.push(`- Usage: ${formatUsage(usage)}`);
  lines.push('');
  if (conversation.settings.systemPrompt) {
    lines.push('## System', '', fenced(conversation.settings.systemPrompt.trimEnd(), 'text'), '');
  }
  for (const turn of conversation.turns) {
    const who = turn.role === 'user' ? 'User' : `Assistant${turn.model ? ` (${oneLine(turn.model)})` : ''}`;
    lines.push(`## ${who}`, '');
    if (turn.notice) lines.push(`> ${oneLine(turn.notice)}`, '');
    // trimEnd, not a pattern like /\s+$/: that is quadratic on a long whitespace run inside the text.
    const content = turn.content.trimEnd();
    // As the chat shows it (rendered Markdown), not as a fenced source block.
    if (content) lines.push(containedMarkdown(content), '');
    const note = STATUS_NOTE[turn.status];
    if (note) lines.push(note, '');
    if (turn.error) lines.push(`> **Error (${turn.error.kind}):** ${oneLine(turn.error.message)}`, '');
    if (turn.usage) lines.push(`_${formatUsage(turn.usage)}_`, '');
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return `${lines.join('\n')}\n`;
}

/** A short title from the first user message: first line, markdown fences and quotes stripped. */
export function titleFrom(text: string, maxChars = 60): string {
  const firstLine =
    text
      .split('\n')
      .map((line) => line.replace(/^[#>*\-\s`]+/, '').trim())
      .find((line) => line.length > 0) ?? '';
  const clean = firstLine.replace(/\s+/g, ' ');
  if (!clean) return NEW_CHAT_TITLE;
  return clean.length > maxChars ? `${clean.slice(0, maxChars - 1)}…` : clean;
}
