// Entry of the chat webview (bundled by esbuild to dist/webview/chat.js). It builds the page, says
// 'ready', then renders whatever state the host sends. It keeps no conversation state of its own, so
// the panel can be hidden (and its webview destroyed) at any time and restored from the host.

import { MAX_SYSTEM_PROMPT_CHARS, MAX_TOKENS_MAX, MAX_TOKENS_MIN, TEMPERATURE_MAX, TEMPERATURE_MIN } from '../../shared/limits';
import { CHAT_ACTIONS, type ChatAction, type ConversationView, type DeployedModelOption, type HostMessage } from '../../shared/protocol';
import { formatString, NEW_CHAT_TITLE } from '../../shared/webviewStrings';
import { chatModelName, modelDisplayName } from '../../shared/modelDisplayName';
import { AutoScroll } from './autoScroll';
import { Composer } from './composer';
import { button, el, iconButton } from './dom';
import { HostChannel } from './hostChannel';
import { createChatMarkdown } from './markdown';
import { formatTokens, readPageStrings, searchConversationsLabel } from './strings';
import { Transcript } from './transcript';

const FEEDBACK_MS = 2500;
/** The localized strings from the host (every text this page shows). */
const S = readPageStrings();
/** The value of the conversation picker's last entry, which opens the search instead of a conversation. */
const SEARCH_OPTION = '\u0000search';

function isChatAction(value: string | undefined): value is ChatAction {
  return value !== undefined && (CHAT_ACTIONS as readonly string[]).includes(value);
}

class ChatApp {
  private readonly channel = new HostChannel((message) => this.onHostMessage(message));
  private conversation: ConversationView | undefined;
  private models: string[] = [];
  private deployed: DeployedModelOption[] = [];

  // Header
  private readonly conversationSelect = el('select', { className: 'conversation-select', ariaLabel: S.conversationPicker, title: S.conversationPickerTitle });
  private readonly modelSelect = el('select', { className: 'model-select', ariaLabel: S.modelPicker, title: S.modelPickerTitle });
  private readonly modelStatus = el('span', { className: 'model-status' });
  private readonly profileLabel = el('span', { className: 'profile-label', title: S.profileTitle });
  private readonly usageLabel = el('span', { className: 'usage-label', title: S.conversationUsageTitle });
  // Settings
  private readonly systemPrompt = el('textarea', { className: 'system-prompt', ariaLabel: S.systemPrompt });
  private readonly temperature = el('input', { type: 'number', className: 'temperature', ariaLabel: S.temperature });
  private readonly maxTokens = el('input', { type: 'number', className: 'max-tokens', ariaLabel: S.maxTokens });
  // Body
  private readonly transcriptElement = el('div', { className: 'transcript', ariaLabel: S.transcript });
  private readonly emptyState = el('div', { className: 'empty-state' },
    el('p', {}, S.emptyState),
    el('p', { className: 'hint' }, S.emptyStateHint));
  private readonly jumpButton = button(S.jumpToLatest, { className: 'jump-latest' });
  private readonly feedback = el('div', { className: 'feedback' });
  private readonly input = el('textarea', { className: 'composer-input', ariaLabel: S.message, title: S.messageTitle });
  /** The code attached to the next message (Ask about Selection): its label and a remove button. */
  private readonly contextLabel = el('span', { className: 'context-label' });
  private readonly contextRemove = iconButton('×', S.removeContext, { className: 'context-remove' });
  private readonly contextChip = el('div', { className: 'context-chip' }, this.contextLabel, this.contextRemove);

  private readonly transcript: Transcript;
  private readonly composer: Composer;
  private feedbackTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(root: HTMLElement) {
    const md = createChatMarkdown(S);
    const scroller = el('div', { className: 'transcript-scroller' }, this.emptyState, this.transcriptElement);
    const autoScroll = new AutoScroll(scroller, this.jumpButton);
    this.transcript = new Transcript(this.transcriptElement, this.emptyState, md, autoScroll, S);

    const sendButton = iconButton('➤', S.send, { className: 'primary send', title: S.sendTitle });
    const stopButton = iconButton('■', S.stop, { className: 'stop', title: S.stopTitle });
    const cancelEdit = button(S.cancel, { className: 'link-button' });
    const editBanner = el('div', { className: 'edit-banner' }, S.editingBanner, cancelEdit);
    this.composer = new Composer(this.input, sendButton, stopButton, editBanner, cancelEdit, {
      send: (text) => void this.request({ type: 'chat/send', text }),
      editLast: (text) => void this.request({ type: 'chat/editLast', text }),
      stop: () => void this.request({ type: 'chat/stop' }),
      reportDraft: (text) => void this.channel.request({ type: 'composer/draft', text }),
    });

    // Landmarks at the top level (a banner with the page's one heading, then the main part), so a screen
    // reader's landmark and heading lists lead into the page.
    root.replaceChildren(
      this.buildHeader(),
      el('main', { className: 'chat-main' },
        this.buildSettings(),
        scroller,
        this.jumpButton,
        el('div', { className: 'composer' }, editBanner, this.contextChip, el('div', { className: 'composer-row' }, this.input, sendButton, stopButton)),
        this.feedback),
    );
    // Errors show here, inline under the composer (never as a notification over Send and Stop).
    this.feedback.setAttribute('role', 'status');
    this.feedback.setAttribute('aria-live', 'polite');
    this.feedback.hidden = true;
    this.contextChip.hidden = true;
    this.contextChip.setAttribute('role', 'group');
    this.contextRemove.addEventListener('click', () => {
      this.showContext(undefined);
      void this.request({ type: 'composer/removeContext' });
      this.composer.focus();
    });
    scroller.addEventListener('click', (event) => this.onTranscriptClick(event));
    scroller.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLElement && event.target.classList.contains('chat-link')) this.onTranscriptClick(event);
    });
    void this.channel.request({ type: 'ready' });
  }

  private buildHeader(): HTMLElement {
    this.conversationSelect.addEventListener('change', () => {
      if (this.conversationSelect.value === SEARCH_OPTION) {
        // Not a conversation: put the selection back and let the host search every conversation.
        if (this.conversation) this.conversationSelect.value = this.conversation.id;
        void this.request({ type: 'conversation/search' });
        return;
      }
      void this.request({ type: 'conversation/switch', conversationId: this.conversationSelect.value });
    });
    this.modelSelect.addEventListener('change', () => void this.request({ type: 'settings/update', model: this.modelSelect.value }));
    const newChat = iconButton('+', S.newConversationTitle, { className: 'toolbar-button' });
    newChat.addEventListener('click', () => void this.request({ type: 'conversation/new' }));
    const clear = iconButton('⌫', S.clearTitle, { className: 'toolbar-button' });
    clear.addEventListener('click', () => void this.request({ type: 'conversation/clear' }));
    const exportButton = iconButton('⤓', S.exportTitle, { className: 'toolbar-button' });
    exportButton.addEventListener('click', () => void this.request({ type: 'conversation/export' }));
    const remove = iconButton('✕', S.deleteTitle, { className: 'toolbar-button' });
    remove.addEventListener('click', () => {
      if (this.conversation) void this.request({ type: 'conversation/delete', conversationId: this.conversation.id });
    });
    const refresh = iconButton('↻', S.refreshModelsTitle, { className: 'toolbar-button' });
    refresh.addEventListener('click', () => void this.request({ type: 'models/refresh' }));
    // The page's title (the panel's, already localized) as its heading, for screen readers only.
    return el('header', { className: 'chat-header' },
      el('h1', { className: 'sr-only' }, document.title),
      el('div', { className: 'header-row' }, this.conversationSelect, newChat, clear, exportButton, remove),
      el('div', { className: 'header-row' }, this.modelSelect, refresh, this.modelStatus, this.profileLabel, this.usageLabel));
  }

  private buildSettings(): HTMLElement {
    this.systemPrompt.maxLength = MAX_SYSTEM_PROMPT_CHARS;
    this.systemPrompt.rows = 3;
    this.temperature.min = String(TEMPERATURE_MIN);
    this.temperature.max = String(TEMPERATURE_MAX);
    this.temperature.step = '0.1';
    this.maxTokens.min = String(MAX_TOKENS_MIN);
    this.maxTokens.max = String(MAX_TOKENS_MAX);
    this.maxTokens.step = '1';
    this.systemPrompt.addEventListener('change', () => void this.request({ type: 'settings/update', systemPrompt: this.systemPrompt.value }));
    this.temperature.addEventListener('change', () => {
      const value = this.temperature.valueAsNumber;
      if (this.temperature.checkValidity() && Number.isFinite(value)) void this.request({ type: 'settings/update', temperature: value });
      else this.showFeedback(formatString(S.temperatureRange, TEMPERATURE_MIN, TEMPERATURE_MAX));
    });
    this.maxTokens.addEventListener('change', () => {
      const value = this.maxTokens.valueAsNumber;
      if (this.maxTokens.checkValidity() && Number.isInteger(value)) void this.request({ type: 'settings/update', maxTokens: value });
      else this.showFeedback(formatString(S.maxTokensRange, MAX_TOKENS_MIN));
    });
    return el('details', { className: 'settings' },
      el('summary', {}, S.settings),
      el('label', {}, S.systemPrompt, this.systemPrompt),
      el('div', { className: 'settings-row' }, el('label', {}, S.temperature, this.temperature), el('label', {}, S.maxTokens, this.maxTokens)));
  }

  private async request(request: Parameters<HostChannel['request']>[0]): Promise<void> {
    const result = await this.channel.request(request);
    if (result.message) this.showFeedback(result.message, !result.ok);
  }

  private onHostMessage(message: HostMessage): void {
    switch (message.type) {
      case 'conversation/state': {
        const changed = this.conversation?.id !== message.conversation.id;
        this.conversation = message.conversation;
        this.channel.rememberConversation(message.conversation.id);
        this.renderConversationList(message.conversation.id, message.conversations, message.conversationCount);
        this.renderSettings(message.conversation);
        this.profileLabel.textContent = message.profileLabel ? formatString(S.profileLabel, message.profileLabel) : S.noProfile;
        this.usageLabel.textContent = message.conversation.usage ? `Σ ${formatTokens(S, message.conversation.usage)}` : '';
        this.composer.setBusy(message.conversation.busy);
        this.transcript.render(message.conversation, changed);
        return;
      }
      case 'chat/delta':
        if (message.conversationId === this.conversation?.id) this.transcript.appendDelta(message.turnId, message.content, message.reasoning);
        return;
      case 'models/list':
        this.models = message.models;
        this.deployed = message.deployed ?? [];
        this.transcript.deployed = this.deployed;
        if (this.conversation) this.transcript.render(this.conversation, false);
        this.modelStatus.textContent = message.loading ? S.loadingModels : (message.error ?? '');
        this.modelStatus.classList.toggle('error', message.error !== undefined);
        if (this.conversation) this.renderSettings(this.conversation);
        return;
      case 'composer/set':
        this.composer.setText(message.text, message.focus);
        return;
      case 'composer/context':
        this.showContext(message.label);
        return;
      case 'request/result':
        return; // answered by HostChannel
    }
  }

  private renderConversationList(activeId: string, conversations: readonly { id: string; title: string; turnCount: number }[], total: number): void {
    const options = conversations.map((summary) => {
      const title = summary.title === NEW_CHAT_TITLE ? S.newChatTitle : summary.title;
      const option = el('option', {}, `${title}${summary.turnCount ? ` (${summary.turnCount})` : ''}`);
      option.value = summary.id;
      option.selected = summary.id === activeId;
      return option;
    });
    const search = el('option', {}, searchConversationsLabel(S, total));
    search.value = SEARCH_OPTION;
    this.conversationSelect.replaceChildren(...options, search);
  }

  private renderSettings(conversation: ConversationView): void {
    const { settings } = conversation;
    const deployedIds = new Set(this.deployed.map((model) => model.id));
    const ids = this.models.includes(settings.model) || deployedIds.has(settings.model) || !settings.model ? this.models : [settings.model, ...this.models];
    const options: (HTMLOptionElement | HTMLOptGroupElement)[] = ids.map((id) => {
      // The list carries ids only: show a readable name, keep the id as the value and the tooltip.
      const option = el('option', { title: id }, id.startsWith('deployment:') ? chatModelName(id, this.deployed) : modelDisplayName(id));
      option.value = id;
      option.selected = id === settings.model;
      return option;
    });
    if (this.deployed.length > 0) {
      // A user's own deployments, labelled with the task and its ¥/h; one that cannot answer says why.
      const group = el('optgroup', {});
      group.label = S.deployedModels;
      for (const model of this.deployed) {
        const option = el('option', { title: model.reason ?? model.id }, model.reason ? `${model.label} — ${model.reason}` : model.label);
        option.value = model.id;
        option.selected = model.id === settings.model;
        group.append(option);
      }
      options.push(group);
    }
    if (ids.length === 0 && this.deployed.length === 0) {
      const placeholder = el('option', {}, S.noModelYet);
      placeholder.value = '';
      options.push(placeholder);
    }
    this.modelSelect.replaceChildren(...options);
    // Do not overwrite a field the user is typing in.
    if (document.activeElement !== this.systemPrompt) this.systemPrompt.value = settings.systemPrompt;
    if (document.activeElement !== this.temperature) this.temperature.value = String(settings.temperature);
    if (document.activeElement !== this.maxTokens) this.maxTokens.value = String(settings.maxTokens);
  }

  private onTranscriptClick(event: Event): void {
    const target = event.target instanceof Element ? event.target : undefined;
    if (!target) return;
    const link = target.closest<HTMLElement>('.chat-link');
    if (link) {
      event.preventDefault();
      const href = link.dataset.href;
      if (href) void this.request({ type: 'link/open', href });
      return;
    }
    const codeButton = target.closest<HTMLElement>('[data-code-action]');
    if (codeButton) {
      const block = codeButton.closest<HTMLElement>('.code-block');
      const code = (block?.querySelector('pre code')?.textContent ?? '').replace(/\n$/, '');
      const action = codeButton.dataset.codeAction;
      if (action === 'copy') void this.request({ type: 'code/copy', code });
      else if (action === 'insert') void this.request({ type: 'code/insert', code });
      else if (action === 'open') void this.request({ type: 'code/openInEditor', code, language: block?.dataset.lang ?? '' });
      return;
    }
    const turnButton = target.closest<HTMLElement>('[data-turn-action]');
    const turnAction = turnButton?.dataset.turnAction;
    if (turnAction === 'regenerate') void this.request({ type: 'chat/regenerate' });
    else if (turnAction === 'edit') {
      const lastUser = [...(this.conversation?.turns ?? [])].reverse().find((turn) => turn.role === 'user');
      if (lastUser) this.composer.editLastMessage(lastUser.content);
    } else if (isChatAction(turnAction)) void this.request({ type: 'action/run', action: turnAction });
  }

  private showContext(label: string | undefined): void {
    this.contextChip.hidden = label === undefined;
    this.contextLabel.textContent = label ?? '';
    this.contextLabel.title = label ?? '';
    this.contextChip.setAttribute('aria-label', formatString(S.attachedContext, label ?? ''));
    const removeLabel = formatString(S.removeContext, label ?? '');
    this.contextRemove.setAttribute('aria-label', removeLabel);
    this.contextRemove.title = removeLabel;
  }

  private showFeedback(text: string, isError = false): void {
    this.feedback.textContent = text;
    this.feedback.classList.toggle('error', isError);
    this.feedback.hidden = false;
    if (this.feedbackTimer !== undefined) clearTimeout(this.feedbackTimer);
    this.feedbackTimer = setTimeout(() => (this.feedback.hidden = true), isError ? FEEDBACK_MS * 2 : FEEDBACK_MS);
  }
}

const root = document.getElementById('chat-root');
if (root) new ChatApp(root);
