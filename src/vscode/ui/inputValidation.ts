// When an input box step shows its validation message. Kept free of `vscode` so plain unit tests check it.

/**
 * The message to show as a step opens. An empty box has not been answered yet: "Enter the name."
 * in red before the user typed anything reads as a mistake they made, so it waits for typing or
 * Enter. A prefilled value (a default, or the answer kept when going Back) is checked at once.
 */
export function messageOnOpen(value: string, validate: ((value: string) => string | undefined) | undefined): string | undefined {
  return value.length === 0 ? undefined : validate?.(value);
}

/**
 * The message under an input box when a note (e.g. the cost of the value) is shown: VS Code shows a
 * validation message in place of the prompt, so the question stays in front of the note.
 */
export function noteWithPrompt(prompt: string, note: string): string {
  return prompt ? `${prompt} — ${note}` : note;
}

/**
 * The step counter of a multi-step flow, never changing its total mid-flow ("1/2" then "2/6"): the first
 * step fixes the total; a flow whose steps declare no total, or different totals, shows no fraction
 * from that step on (VS Code then shows the step number alone).
 */
export class StepCounter {
  private total: number | 'none' | undefined;

  /** The total to show for a step that declares `declared` (undefined: no fraction). */
  totalFor(declared: number | undefined): number | undefined {
    if (this.total === undefined) this.total = declared ?? 'none';
    else if (this.total !== declared) this.total = 'none';
    return this.total === 'none' ? undefined : this.total;
  }
}
