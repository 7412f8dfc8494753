// The conversation view. Finished turns are rendered once with markdown-it and kept until they change;
// the streaming reply goes through IncrementalMarkdown, and its DOM is updated at most once per
// animation frame however many deltas arrive in between.

import { costLine } from '../../shared/costLine';
import type { ChatAction, ChatTurn, ConversationView } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/webviewStrings';
import type { AutoScroll } from './autoScroll';
import { button, el } from './dom';
import { IncrementalMarkdown, type RenderUpdate } from './incrementalMarkdown';
import type { Markdown } from './markdown';
import { formatTokens } from './strings';
import { chatModelName } from '../../shared/modelDisplayName';

const ACTION_LABELS: Record<ChatAction, keyof WebviewStrings> = {
  retry: 'actionRetry',
  setModelApiKey: 'actionSetModelApiKey',
  connectProfile: 'actionConnectProfile',
  showLogs: 'actionShowLogs',
};

const IMMEDIATE_RENDERS_MAX = 8;

const STATUS_TEXT: Partial<Record<ChatTurn['status'], keyof WebviewStrings>> = {
  stopped: 'statusStopped',
  incomplete: 'statusIncomplete',
};

interface StreamingParts {
  renderer: IncrementalMarkdown;
  frozen: HTMLElement;
  tail: HTMLElement;
  reasoning: HTMLElement;
  reasoningBox: HTMLDetailsElement;
  reasoningText: string;
  /** Some reply text is on screen (the first delta is rendered at once, later ones once per frame). */
  shownText: boolean;
  immediateRenders: number;
}

interface TurnEntry {
  element: HTMLElement;
  signature: string;
  streaming?: StreamingParts;
}

export class Transcript {
  private readonly entries = new Map<string, TurnEntry>();
  private frameRequested = false;
  private readonly dirty = new Set<string>();
  /** The deployed models the host listed: a turn of one is headed "Qwen3-8B · my-task", not its id. */
  deployed: readonly { id: string; name: string }[] = [];

  constructor(
    private readonly container: HTMLElement,
    private readonly emptyState: HTMLElement,
    private readonly md: Markdown,
    private readonly autoScroll: AutoScroll,
    private readonly strings: WebviewStrings,
  ) {}

  /** Reconciles the view with the host's state: unchanged turns keep their DOM. */
  render(conversation: ConversationView, conversationChanged: boolean): void {
    if (conversationChanged) {
      this.entries.clear();
      this.container.replaceChildren();
    }
    const lastUser = findLastIndex(conversation.turns, (turn) => turn.role === 'user');
    const lastIndex = conversation.turns.length - 1;
    const wanted: HTMLElement[] = [];
    const seen = new Set<string>();
    conversation.turns.forEach((turn, index) => {
      seen.add(turn.id);
      const flags = {
        canEdit: !conversation.busy && index === lastUser,
        canRegenerate: !conversation.busy && index === lastIndex && turn.role === 'assistant',
      };
      wanted.push(this.entryFor(turn, flags).element);
    });
    for (const id of [...this.entries.keys()]) if (!seen.has(id)) this.entries.delete(id);
    // Reorder/append only where needed so unchanged turns keep their DOM (and selection).
    wanted.forEach((element, index) => {
      if (this.container.children[index] !== element) this.container.insertBefore(element, this.container.children[index] ?? null);
    });
    while (this.container.children.length > wanted.length) this.container.lastElementChild?.remove();
    this.emptyState.hidden = conversation.turns.length > 0;
    this.autoScroll.contentChanged();
  }

  /** Streamed text for a turn; rendered on the next animation frame. */
  appendDelta(turnId: string, content: string, reasoning: string): void {
    const streaming = this.entries.get(turnId)?.streaming;
    if (!streaming) return; // the state message that creates the turn always comes first
    const first = !streaming.shownText && content.length > 0;
    streaming.renderer.append(content);
    streaming.reasoningText += reasoning;
    if (first) {
      // The first text of a reply is what the user waits for: show it now, batch what follows per frame.
      // Until something readable shows (a reply starting "## " renders as an empty heading), each delta
      // is rendered at once, at most IMMEDIATE_RENDERS_MAX of them.
      streaming.immediateRenders += 1;
      applyStreaming(streaming, streaming.renderer.update());
      streaming.shownText = streaming.immediateRenders >= IMMEDIATE_RENDERS_MAX || hasVisibleText(streaming);
      this.autoScroll.contentChanged();
      return;
    }
    this.dirty.add(turnId);
    if (!this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame(() => this.renderFrame());
    }
  }

  private renderFrame(): void {
    this.frameRequested = false;
    for (const turnId of this.dirty) {
      const streaming = this.entries.get(turnId)?.streaming;
      if (streaming) applyStreaming(streaming, streaming.renderer.update());
    }
    this.dirty.clear();
    this.autoScroll.contentChangedInFrame();
  }

  private entryFor(turn: ChatTurn, flags: { canEdit: boolean; canRegenerate: boolean }): TurnEntry {
    const author = turn.model ? chatModelName(turn.model, this.deployed) : '';
    const signature = JSON.stringify([turn.status, turn.content.length, turn.model, author, turn.usage, turn.cost, turn.error, turn.notice, flags]);
    const existing = this.entries.get(turn.id);
    if (existing?.streaming && turn.status === 'streaming') {
      // Deltas drive a streaming turn; a state message only refreshes its header.
      existing.signature = signature;
      return existing;
    }
    if (existing && existing.signature === signature && !existing.streaming) return existing;
    const entry = this.buildTurn(turn, flags, signature);
    existing?.element.replaceWith(entry.element);
    this.entries.set(turn.id, entry);
    return entry;
  }

  private buildTurn(turn: ChatTurn, flags: { canEdit: boolean; canRegenerate: boolean }, signature: string): TurnEntry {
    const S = this.strings;
    const who = turn.role === 'user' ? S.you : turn.model ? chatModelName(turn.model, this.deployed) : S.assistant;
    const meta = el('div', { className: 'turn-meta' }, el('span', { className: 'turn-author' }, who));
    if (turn.status === 'streaming') meta.append(el('span', { className: 'turn-badge streaming' }, S.streaming));
    if (turn.usage) meta.append(el('span', { className: 'turn-usage', title: S.usageTitle }, formatTokens(S, turn.usage)));

    const element = el('article', { className: `turn turn-${turn.role} status-${turn.status}`, dataset: { turnId: turn.id } }, meta);
    if (turn.notice) element.append(el('div', { className: 'turn-notice', title: S.notice }, turn.notice));

    const reasoning = el('div', { className: 'reasoning-text' }, turn.reasoning ?? '');
    const reasoningBox = el('details', { className: 'turn-reasoning' }, el('summary', {}, S.reasoning), reasoning);
    reasoningBox.hidden = !turn.reasoning;
    element.append(reasoningBox);

    const body = el('div', { className: 'turn-body markdown-body' });
    element.append(body);
    let streaming: StreamingParts | undefined;
    if (turn.status === 'streaming') {
      const frozen = el('div', { className: 'md-frozen' });
      const tail = el('div', { className: 'md-tail' });
      body.append(frozen, tail);
      streaming = { renderer: new IncrementalMarkdown(this.md), frozen, tail, reasoning, reasoningBox, reasoningText: turn.reasoning ?? '', shownText: turn.content.length > 0, immediateRenders: 0 };
      streaming.renderer.append(turn.content);
      applyStreaming(streaming, streaming.renderer.update());
    } else {
      body.innerHTML = this.md.render(turn.content);
    }

    // A deployment's answer: what it cost at the deployment's rate (approximate).
    if (turn.cost) element.append(el('div', { className: 'turn-cost', title: S.costTitle }, costLine(turn.cost, S.costLine, S.costTokens)));
    const statusKey = STATUS_TEXT[turn.status];
    const statusText = statusKey ? S[statusKey] : undefined;
    if (statusText) element.append(el('div', { className: 'turn-status' }, statusText));
    if (turn.error) {
      const actions = el('div', { className: 'turn-actions' }, ...turn.error.actions.map((action) => button(S[ACTION_LABELS[action]], { className: 'action', dataset: { turnAction: action } })));
      element.append(el('div', { className: 'turn-error', title: turn.error.kind }, el('span', { className: 'error-text' }, turn.error.message), actions));
    }
    const tools: HTMLElement[] = [];
    if (flags.canEdit) tools.push(button(S.edit, { className: 'link-button', title: S.editTitle, dataset: { turnAction: 'edit' } }));
    if (flags.canRegenerate) tools.push(button(S.regenerate, { className: 'link-button', title: S.regenerateTitle, dataset: { turnAction: 'regenerate' } }));
    if (tools.length > 0) element.append(el('div', { className: 'turn-tools' }, ...tools));
    return streaming ? { element, signature, streaming } : { element, signature };
  }
}

function applyStreaming(parts: StreamingParts, update: RenderUpdate): void {
  // Each frozen chunk is its own element (display: contents) so a late reference definition can replace
  // just the chunks that use it.
  for (const { index, html } of update.replaced) {
    const chunk = parts.frozen.children[index];
    if (chunk) chunk.innerHTML = html;
  }
  for (const html of update.frozenAppend) {
    const chunk = el('div', { className: 'md-chunk' });
    chunk.innerHTML = html;
    parts.frozen.append(chunk);
  }
  parts.tail.innerHTML = update.tail;
  if (parts.reasoningText && parts.reasoning.textContent !== parts.reasoningText) {
    parts.reasoning.textContent = parts.reasoningText;
    parts.reasoningBox.hidden = false;
  }
}

/** Only runs while nothing readable is shown, so the text read is a few characters. */
function hasVisibleText(parts: StreamingParts): boolean {
  return (parts.tail.textContent ?? '').trim() !== '' || (parts.frozen.textContent ?? '').trim() !== '';
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i] as T)) return i;
  return -1;
}
