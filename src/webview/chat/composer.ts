// The message input: Enter sends (never while an IME is composing), Shift+Enter is a newline, the text
// is reported to the host (debounced) so it survives the panel being hidden, and "edit last message"
// mode resends through 'chat/editLast'.

import { MAX_USER_MESSAGE_CHARS } from '../../shared/limits';

const DRAFT_REPORT_DELAY_MS = 300;
/** The textarea grows with its content up to this height, then scrolls. */
const MAX_INPUT_HEIGHT_PX = 240;

export interface ComposerHandlers {
  send(text: string): void;
  editLast(text: string): void;
  stop(): void;
  reportDraft(text: string): void;
}

export class Composer {
  private busy = false;
  private editing = false;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly sendButton: HTMLButtonElement,
    private readonly stopButton: HTMLButtonElement,
    private readonly editBanner: HTMLElement,
    cancelEditButton: HTMLButtonElement,
    private readonly handlers: ComposerHandlers,
  ) {
    input.maxLength = MAX_USER_MESSAGE_CHARS;
    input.addEventListener('keydown', (event) => {
      // keyCode 229: some IMEs (Safari, older Chromium) report composition keys without isComposing.
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      this.submit();
    });
    input.addEventListener('input', () => {
      this.fitHeight();
      this.scheduleDraftReport();
      this.updateButtons();
    });
    sendButton.addEventListener('click', () => this.submit());
    stopButton.addEventListener('click', () => handlers.stop());
    cancelEditButton.addEventListener('click', () => this.setEditing(false));
    this.setEditing(false);
    this.updateButtons();
  }

  /** Replaces the text (selection-to-prompt, restore) and optionally focuses with the cursor at the end. */
  setText(text: string, focus: boolean): void {
    this.input.value = text;
    this.fitHeight();
    this.updateButtons();
    if (focus) {
      this.input.focus();
      this.input.setSelectionRange(text.length, text.length);
      this.input.scrollTop = this.input.scrollHeight;
    }
    this.reportDraftNow();
  }

  /** Puts the last user message in the input for editing; sending replaces it and asks again. */
  editLastMessage(text: string): void {
    this.setEditing(true);
    this.setText(text, true);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.updateButtons();
  }

  focus(): void {
    this.input.focus();
  }

  private submit(): void {
    const text = this.input.value;
    if (this.busy || text.trim().length === 0) return;
    if (this.editing) this.handlers.editLast(text);
    else this.handlers.send(text);
    this.setEditing(false);
    this.setText('', true);
  }

  private setEditing(editing: boolean): void {
    this.editing = editing;
    this.editBanner.hidden = !editing;
  }

  private updateButtons(): void {
    this.sendButton.hidden = this.busy;
    this.stopButton.hidden = !this.busy;
    this.sendButton.disabled = this.input.value.trim().length === 0;
  }

  private fitHeight(): void {
    // CSSOM writes are allowed under the CSP (only inline style attributes are blocked).
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
  }

  private scheduleDraftReport(): void {
    if (this.draftTimer !== undefined) clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => this.reportDraftNow(), DRAFT_REPORT_DELAY_MS);
  }

  private reportDraftNow(): void {
    if (this.draftTimer !== undefined) clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
    this.handlers.reportDraft(this.input.value);
  }
}
