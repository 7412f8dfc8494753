// Something the extension would not do, already worded in the display language with the actions that
// fix it ("Fix the problems in … first; nothing was sent."). It goes through the one error path like any
// failure (services.reportError: logged, redacted, buttons from errorActions.ts) and is shown as it is,
// without the "… failed:" frame a failure gets (describeError.ts).

import type { ErrorAction } from './errorActions';

export class Refusal extends Error {
  override readonly name = 'Refusal';

  constructor(
    readonly text: string,
    readonly actions: readonly ErrorAction[] = [],
    readonly severity: 'error' | 'warning' = 'error',
  ) {
    super(text);
  }
}
