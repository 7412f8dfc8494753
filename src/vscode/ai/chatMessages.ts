// VS Code's language-model messages ↔ the chat-completions convention: text parts become content, tool
// call parts an assistant's tool_calls, tool result parts `tool` messages, offered tools the `tools`
// field. Pure apart from the part classes; reasoning never reaches the answer.

import * as vscode from 'vscode';
import type { ChatMessage, ChatTool, ToolCall } from '../../core/inference/api';

function textOfContent(content: readonly unknown[]): string {
  return content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string') return (part as { value: string }).value;
      try {
        return JSON.stringify(part) ?? '';
      } catch {
        return '';
      }
    })
    .join('');
}

function isToolCall(part: unknown): part is vscode.LanguageModelToolCallPart {
  return part instanceof vscode.LanguageModelToolCallPart;
}

function isToolResult(part: unknown): part is vscode.LanguageModelToolResultPart {
  return part instanceof vscode.LanguageModelToolResultPart;
}

export function toChatMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const text = message.content.filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart).map((part) => part.value).join('');
    if (message.role === vscode.LanguageModelChatMessageRole.Assistant) {
      const calls: ToolCall[] = message.content.filter(isToolCall).map((part) => ({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) }));
      out.push(calls.length > 0 ? { role: 'assistant', content: text, tool_calls: calls } : { role: 'assistant', content: text });
      continue;
    }
    // Tool results answer the previous assistant's calls, so they come before this message's own text.
    for (const result of message.content.filter(isToolResult)) out.push({ role: 'tool', tool_call_id: result.callId, content: textOfContent(result.content) });
    if (text !== '' || message.content.length === 0) {
      out.push({ role: message.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'system', content: text });
    }
  }
  return out;
}

export function toChatTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): ChatTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema ?? { type: 'object', properties: {} } }));
}
