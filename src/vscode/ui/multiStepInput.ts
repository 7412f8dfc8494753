// The one way the extension asks several questions in a row, and the review before anything spends.
// A multi-step QuickPick / InputBox flow with a step counter and a Back button (the pattern of the
// vscode-extension-samples quickinput sample). Each step is a function that asks one question and
// returns the next step; Back re-runs the previous step with the values gathered so far.

import * as vscode from 'vscode';
import { keepItemOrder } from './quickPickOrder';
import { StepCounter, messageOnOpen, noteWithPrompt } from './inputValidation';

/** Thrown inside a step when the user presses Back. */
class BackSignal extends Error {}
/** Thrown inside a step when the user dismisses the input. */
class CancelSignal extends Error {}

export type Step = (input: MultiStepInput) => Promise<Step | void>;

export interface InputBoxStep {
  title: string;
  /** Left out for a one-question flow: no counter then. */
  step?: number;
  /** The flow's number of steps, when known from the start (see StepCounter); else leave it out. */
  totalSteps?: number;
  value: string;
  prompt: string;
  placeholder?: string;
  password?: boolean;
  /** Returns an error message, or undefined when the value is acceptable. */
  validate?: (value: string) => string | undefined;
  /** Information or a warning about an acceptable value (e.g. its cost), shown as the user types; never blocks. */
  note?: (value: string) => { severity: 'info' | 'warning'; text: string } | undefined;
}

export interface QuickPickStep<T extends vscode.QuickPickItem> {
  title: string;
  /** Left out for a one-question flow (a review on its own): no counter then. */
  step?: number;
  /** The flow's number of steps, when known from the start (see StepCounter); else leave it out. */
  totalSteps?: number;
  items: readonly T[];
  placeholder: string;
  activeItem?: T;
  /** Which items answer the step when accepted (default: all); accepting another one keeps the step open. */
  only?: (item: T) => boolean;
}

/** A review before something spends: the safe answer is the default wherever money is spent. */
export interface ReviewStep {
  title: string;
  step?: number;
  totalSteps?: number;
  /** The item that spends, e.g. "Create NAS volume …", with what it costs as its detail. */
  go: { label: string; description?: string; detail?: string };
  placeholder: string;
  /** More of the plan, listed below the answers; choosing one of them answers nothing. */
  lines?: readonly string[];
  /** The separator above `lines` (default "Details"). */
  linesTitle?: string;
}

/** A review's answers: Cancel comes first and is highlighted, so Enter never spends. */
export interface ReviewItem extends vscode.QuickPickItem {
  go?: boolean;
}

/** The input a multi-step flow shows now (what the in-host tests answer, as a user would). */
let shownInput: vscode.QuickInput | undefined;
export function shownStepInput(): vscode.QuickInput | undefined {
  return shownInput;
}

/** Asks for a go-ahead before something spends, on its own (no step counter): true only on the go item. */
export async function confirmSpend(review: Omit<ReviewStep, 'step' | 'totalSteps'>): Promise<boolean> {
  let go = false;
  const finished = await MultiStepInput.run(async (input) => {
    go = await input.showReview(review);
  });
  return finished && go;
}

export class MultiStepInput {
  private current: vscode.QuickInput | undefined;
  private readonly steps: Step[] = [];
  private readonly counter = new StepCounter();

  /** Runs the flow; resolves true when it reached the end, false when the user cancelled. */
  static async run(start: Step): Promise<boolean> {
    return new MultiStepInput().stepThrough(start);
  }

  private async stepThrough(start: Step): Promise<boolean> {
    let step: Step | void = start;
    try {
      while (step) {
        this.steps.push(step);
        try {
          step = await step(this);
        } catch (error) {
          if (!(error instanceof BackSignal)) throw error;
          this.steps.pop(); // the step that was showing
          step = this.steps.pop(); // the one before it, run again
        }
      }
      return true;
    } catch (error) {
      if (error instanceof CancelSignal) return false;
      throw error;
    } finally {
      this.current?.dispose();
    }
  }

  async showInputBox(options: InputBoxStep): Promise<string> {
    const input = vscode.window.createInputBox();
    input.title = options.title;
    input.step = options.step;
    input.totalSteps = options.step === undefined ? undefined : this.counter.totalFor(options.totalSteps);
    input.value = options.value;
    input.prompt = options.prompt;
    input.placeholder = options.placeholder;
    input.password = options.password ?? false;
    input.ignoreFocusOut = true;
    input.buttons = this.steps.length > 1 ? [vscode.QuickInputButtons.Back] : [];
    const noteFor = (value: string): vscode.InputBoxValidationMessage | undefined => {
      const note = options.note?.(value);
      if (!note) return undefined;
      return { message: noteWithPrompt(options.prompt, note.text), severity: note.severity === 'warning' ? vscode.InputBoxValidationSeverity.Warning : vscode.InputBoxValidationSeverity.Info };
    };
    const validate = (value: string): void => {
      input.validationMessage = options.validate?.(value) ?? noteFor(value);
    };
    input.validationMessage = messageOnOpen(input.value, options.validate) ?? noteFor(input.value);
    return this.show(input, (resolve, reject, disposables) => {
      disposables.push(
        input.onDidChangeValue(validate),
        input.onDidAccept(() => {
          const message = options.validate?.(input.value);
          if (message) {
            input.validationMessage = message;
            return;
          }
          resolve(input.value);
        }),
        input.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) reject(new BackSignal());
        }),
      );
    });
  }

  async showQuickPick<T extends vscode.QuickPickItem>(options: QuickPickStep<T>): Promise<T> {
    const input = vscode.window.createQuickPick<T>();
    input.title = options.title;
    input.step = options.step;
    input.totalSteps = options.step === undefined ? undefined : this.counter.totalFor(options.totalSteps);
    input.items = options.items;
    input.placeholder = options.placeholder;
    input.ignoreFocusOut = true;
    // Our lists come in a deliberate order (cheapest region first): typing narrows them, never re-sorts.
    input.matchOnDescription = true;
    keepItemOrder(input);
    if (options.activeItem) input.activeItems = [options.activeItem];
    input.buttons = this.steps.length > 1 ? [vscode.QuickInputButtons.Back] : [];
    return this.show(input, (resolve, reject, disposables) => {
      disposables.push(
        input.onDidAccept(() => {
          const [picked] = input.selectedItems;
          if (picked && (options.only?.(picked) ?? true)) resolve(picked);
        }),
        input.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) reject(new BackSignal());
        }),
      );
    });
  }

  /** Several items at once (checkboxes); resolves with the checked ones when accepted (the caller judges how many). */
  async showMultiPick<T extends vscode.QuickPickItem>(options: Omit<QuickPickStep<T>, 'activeItem' | 'only'>): Promise<T[]> {
    const input = vscode.window.createQuickPick<T>();
    input.title = options.title;
    input.step = options.step;
    input.totalSteps = options.step === undefined ? undefined : this.counter.totalFor(options.totalSteps);
    input.canSelectMany = true;
    input.items = options.items;
    input.placeholder = options.placeholder;
    input.ignoreFocusOut = true;
    input.matchOnDescription = true;
    keepItemOrder(input);
    input.buttons = this.steps.length > 1 ? [vscode.QuickInputButtons.Back] : [];
    return this.show(input, (resolve, reject, disposables) => {
      disposables.push(
        input.onDidAccept(() => resolve([...input.selectedItems])),
        input.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) reject(new BackSignal());
        }),
      );
    });
  }

  /** A review whose highlighted answer is Cancel (Enter never spends); true only when the go item was picked. */
  async showReview(options: ReviewStep): Promise<boolean> {
    const cancel: ReviewItem = { label: vscode.l10n.t('Cancel'), go: false };
    const go: ReviewItem = { ...options.go, go: true };
    const lines: ReviewItem[] = (options.lines ?? []).map((line) => ({ label: line }));
    const items: ReviewItem[] = [cancel, go, ...(lines.length > 0 ? [{ label: options.linesTitle ?? vscode.l10n.t('Details'), kind: vscode.QuickPickItemKind.Separator }, ...lines] : [])];
    const picked = await this.showQuickPick<ReviewItem>({ title: options.title, ...(options.step !== undefined ? { step: options.step } : {}), ...(options.totalSteps !== undefined ? { totalSteps: options.totalSteps } : {}), items, placeholder: options.placeholder, activeItem: cancel, only: (item) => item.go !== undefined });
    return picked.go === true;
  }

  private show<R>(
    input: vscode.QuickInput,
    wire: (resolve: (value: R) => void, reject: (error: Error) => void, disposables: vscode.Disposable[]) => void,
  ): Promise<R> {
    const disposables: vscode.Disposable[] = [];
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        finish();
      };
      wire(
        (value) => settle(() => resolve(value)),
        (error) => settle(() => reject(error)),
        disposables,
      );
      disposables.push(input.onDidHide(() => settle(() => reject(new CancelSignal()))));
      this.current?.dispose();
      this.current = input;
      shownInput = input;
      input.show();
    }).finally(() => {
      for (const disposable of disposables) disposable.dispose();
      if (shownInput === input) shownInput = undefined;
    });
  }
}
