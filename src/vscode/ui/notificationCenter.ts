// Shows the money-and-time notifications and remembers what it showed (the in-host tests read it).
// Text from the server (task names, reasons) is shown as plain text, shortened.

import * as vscode from 'vscode';

/**
 * What a notification is about, in camelCase ('taskEnded', 'budget', 'preheatDone'): the log line and the
 * in-host tests read it. Each area names its own (a kind's descriptor in its `notices`): no list here.
 */
export type NotificationKind = string;
export type Severity = 'info' | 'warning' | 'error';

export interface NotificationAction {
  title: string;
  run: () => unknown;
}

export interface ShownNotification {
  kind: NotificationKind;
  severity: Severity;
  message: string;
  actions: string[];
  /** Set once the user picked an action (or the test did, through `choose`). */
  chosen?: string;
}

const MAX_KEPT = 100;

/** Server-supplied text in a notification: one line, at most `max` characters. */
export function plain(text: string, max = 80): string {
  const line = text.replace(/[\r\n\t]+/g, ' ').replace(/\p{Cc}/gu, '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export class NotificationCenter {
  private readonly kept: ShownNotification[] = [];
  /** How many were shown this session (the kept list stops growing at 100; this does not). */
  private total = 0;
  private readonly pendingActions = new Map<ShownNotification, NotificationAction[]>();

  constructor(private readonly log: (line: string) => void) {}

  /** Everything shown this session, oldest first (at most the last 100). */
  get shown(): readonly ShownNotification[] {
    return this.kept;
  }

  /** How many notifications were shown this session: a mark for `since`. */
  get count(): number {
    return this.total;
  }

  /** The notifications shown after `mark` (a `count` read earlier), of those still kept. */
  since(mark: number): readonly ShownNotification[] {
    const firstKept = this.total - this.kept.length;
    return this.kept.slice(Math.max(0, mark - firstKept));
  }

  show(kind: NotificationKind, severity: Severity, message: string, actions: NotificationAction[] = []): ShownNotification {
    const record: ShownNotification = { kind, severity, message, actions: actions.map((action) => action.title) };
    this.kept.push(record);
    this.total++;
    if (this.kept.length > MAX_KEPT) this.kept.splice(0, this.kept.length - MAX_KEPT);
    this.pendingActions.set(record, actions);
    this.log(`Notification (${kind}): ${message}`);
    const show =
      severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    show(message, ...record.actions).then(
      (title) => {
        if (title !== undefined) void this.choose(record, title);
        else this.pendingActions.delete(record);
      },
      () => this.pendingActions.delete(record),
    );
    return record;
  }

  /** Runs the action `title` of a shown notification, as a click would. */
  async choose(record: ShownNotification, title: string): Promise<void> {
    const action = this.pendingActions.get(record)?.find((candidate) => candidate.title === title);
    if (!action) return;
    this.pendingActions.delete(record);
    record.chosen = title;
    await action.run();
  }
}
