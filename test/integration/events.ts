// The one wait-for-event helper of the in-host suites: no timers, mocha's test timeout bounds the wait.
import type * as vscode from 'vscode';

/** Resolves with the next value of `event` that satisfies `accept`. */
export function nextEvent<T>(event: vscode.Event<T>, accept: (value: T) => boolean = () => true): Promise<T> {
  return new Promise<T>((resolve) => {
    const listener = event((value) => {
      if (!accept(value)) return;
      listener.dispose();
      resolve(value);
    });
  });
}
