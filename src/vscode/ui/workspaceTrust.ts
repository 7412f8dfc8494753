// Restricted Mode (VS Code's Workspace Trust): what workspace files say is never run or sent until the
// user trusts the folder. Deploy, Update, Run on GPU and Run Again ask `allows()` first; in an untrusted
// workspace it refuses with the reason and an action to trust the folder, and once trust is granted the
// refused command runs again (from its confirmation, as before). Refusals are kept for the in-host tests,
// whose VS Code always trusts its folder: they report trust through `reportTrustForTests`
// (docs/security.md "Restricted Mode").

import * as vscode from 'vscode';

export interface Refusal {
  message: string;
  actions: string[];
  /** Set once the user picked an action (or a test did, through `choose`). */
  chosen?: string;
}

interface RefusalAction {
  title: string;
  run: () => unknown;
}

const MAX_KEPT = 50;

export class Refusals {
  private readonly kept: Refusal[] = [];
  private readonly pending = new Map<Refusal, RefusalAction[]>();

  /** Everything refused this session, oldest first (at most the last 50). */
  get shown(): readonly Refusal[] {
    return this.kept;
  }

  /** Says why something was not done, with the actions that fix it. */
  show(message: string, actions: RefusalAction[]): Refusal {
    const record: Refusal = { message, actions: actions.map((action) => action.title) };
    this.kept.push(record);
    // Actions stay choosable while the record is kept (VS Code closes a notification when the same text shows again).
    for (const dropped of this.kept.splice(0, Math.max(0, this.kept.length - MAX_KEPT))) this.pending.delete(dropped);
    this.pending.set(record, actions);
    void vscode.window.showWarningMessage(message, ...record.actions).then(async (title) => {
      if (title !== undefined) await this.choose(record, title);
    });
    return record;
  }

  /** Runs the action `title` of a refusal, as a click would. */
  async choose(record: Refusal, title: string): Promise<void> {
    const action = this.pending.get(record)?.find((candidate) => candidate.title === title);
    if (!action) return;
    this.pending.delete(record);
    record.chosen = title;
    await action.run();
  }
}

export class WorkspaceTrust implements vscode.Disposable {
  private reported: boolean | undefined;
  /** The command refused last for want of trust: run again once trust is granted. */
  private retry: (() => unknown) | undefined;
  private readonly granted: vscode.Disposable;

  constructor(private readonly refusals: Refusals) {
    this.granted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.trustGranted());
  }

  get trusted(): boolean {
    return this.reported ?? vscode.workspace.isTrusted;
  }

  /** The in-host tests' VS Code always trusts its folder: they say what to report instead (undefined: VS Code's answer). */
  reportTrustForTests(value: boolean | undefined): void {
    this.reported = value;
    if (value === true) this.trustGranted();
  }

  /**
   * True when the workspace is trusted. Otherwise shows why `what` was refused, with Manage Workspace
   * Trust, and remembers `again` to run once trust is granted; nothing was run or sent.
   */
  allows(what: string, again: () => unknown): boolean {
    if (this.trusted) return true;
    this.retry = again;
    const manage = vscode.l10n.t('Manage Workspace Trust');
    this.refusals.show(
      vscode.l10n.t('{0} is not available in Restricted Mode: this folder is not trusted, and its files would decide what runs and what is sent. Trust the folder to continue; nothing was sent.', what),
      [{ title: manage, run: () => vscode.commands.executeCommand('workbench.trust.manage') }],
    );
    return false;
  }

  private trustGranted(): void {
    const again = this.retry;
    this.retry = undefined;
    if (again) void Promise.resolve().then(again).catch(() => undefined);
  }

  dispose(): void {
    this.granted.dispose();
  }
}
