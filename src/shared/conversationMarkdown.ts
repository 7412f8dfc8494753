// Export of a conversation as a Markdown document (Export to Markdown), and usage arithmetic.
// Pure so it is unit-tested on Node and identical wherever it is used.

import type { ChatTurn, ConversationSettings, TokenUsage } from './protocol';

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

/** A readable Markdown transcript: metadata, then each turn under a heading; errors and notices kept. */
export function conversationToMarkdown(conversation: ExportableConversation, exportedAt: Date): string {
  const lines: string[] = [`# ${conversation.title.replace(/\r?\n/g, ' ')}`, ''];
  lines.push(`- Exported: ${exportedAt.toISOString()}`);
  if (conversation.settings.model) lines.push(`- Model: \`${conversation.settings.model}\``);
  lines.push(`- Temperature: ${conversation.settings.temperature}, max tokens: ${conversation.settings.maxTokens}`);
  const usage = sumUsage(conversation.turns);
  if (usage) lines.push(`- Usage: ${formatUsage(usage)}`);
  lines.push('');
  if (conversation.settings.systemPrompt) {
    lines.push('## System', '', conversation.settings.systemPrompt, '');
  }
  for (const turn of conversation.turns) {
    const who = turn.role === 'user' ? 'User' : `Assistant${turn.model ? ` (${turn.model})` : ''}`;
    lines.push(`## ${who}`, '');
    if (turn.notice) lines.push(`> ${turn.notice}`, '');
    if (turn.content) lines.push(turn.content.replace(/\s+$/, ''), '');
    const note = STATUS_NOTE[turn.status];
    if (note) lines.push(note, '');
    if (turn.error) lines.push(`> **Error (${turn.error.kind}):** ${turn.error.message}`, '');
    if (turn.usage) lines.push(`_${formatUsage(turn.usage)}_`, '');
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/** A short title from the first user message: first line, markdown fences and quotes stripped. */
export function titleFrom(text: string, maxChars = 60): string {
  const firstLine =
    text
      .split('\n')
      .map((line) => line.replace(/^[#>*\-\s`]+/, '').trim())
      .find((line) => line.length > 0) ?? '';
  const clean = firstLine.replace(/\s+/g, ' ');
  if (!clean) return 'New chat';
  return clean.length > maxChars ? `${clean.slice(0, maxChars - 1)}…` : clean;
}
