// When an input box step shows its validation message. Kept free of `vscode` so plain unit tests check it.

/**
 * The message to show as a step opens. An empty box has not been answered yet: "Enter the name."
 * in red before the user typed anything reads as a mistake they made, so it waits for typing or
 * Enter. A prefilled value (a default, or the answer kept when going Back) is checked at once.
 */
export function messageOnOpen(value: string, validate: ((value: string) => string | undefined) | undefined): string | undefined {
  return value.length === 0 ? undefined : validate?.(value);
}
