// Request History…, Replay Request and Copy Request as curl: the redacted history of Send Signed
// Request, sent again re-signed with a fresh timestamp, or copied as a curl script whose secrets are
// shell variables.

import * as vscode from 'vscode';
import type { OperationId, OperationParams, PreparedRequest } from '../../core/compute/api';
import type { Services } from '../extensionServices';
import { requestHistory } from './historyStore';
import { curlScript } from './renderSignRequest';
import type { HistoryEntry } from './requestHistory';
import type { RequestInput } from './requestInput';
import { SignRequestController, type SendRequestResult } from './signRequestController';

export class RequestHistoryController {
  constructor(private readonly services: Services) {}

  /** Lists the active profile's history; the picked entry is replayed or copied as curl. */
  async show(): Promise<HistoryEntry | undefined> {
    const entry = await this.pick(vscode.l10n.t('Request History'));
    if (!entry) return undefined;
    const replay = vscode.l10n.t('Replay (re-signed with a fresh timestamp)');
    const copy = vscode.l10n.t('Copy as curl');
    const actions = entry.replayable ? [replay, copy] : [copy];
    const action = await vscode.window.showQuickPick(actions, { title: `${entry.method} ${entry.pathWithQuery}` });
    if (action === replay) await this.replay(entry.id);
    else if (action === copy) await this.copyCurl(entry.id);
    return entry;
  }

  async replay(argument: unknown): Promise<SendRequestResult | undefined> {
    const entry = await this.resolve(argument, vscode.l10n.t('Replay Request'));
    if (!entry) return undefined;
    if (!entry.replayable) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('This request carried a secret, which the history does not keep: send it again with Send Signed Request.'),
      );
      return undefined;
    }
    // The client builds every attempt afresh: a new timestamp and a new signature.
    return new SignRequestController(this.services).send(toArgument(entry.input));
  }

  /** Copies a curl script for the entry, signed now (fresh timestamp); returns the script. */
  async copyCurl(argument: unknown): Promise<string | undefined> {
    const entry = await this.resolve(argument, vscode.l10n.t('Copy Request as curl'));
    if (!entry) return undefined;
    const prepared = await prepare(this.services, entry.input);
    const script = curlScript(prepared);
    await vscode.env.clipboard.writeText(script);
    const note = entry.replayable
      ? vscode.l10n.t('Copied a curl script for {0} {1}: set COMPUTE_TOKEN (and in RSA mode run it within 5 minutes).', entry.method, entry.pathWithQuery)
      : vscode.l10n.t('Copied a curl script for {0} {1}; its secret fields are masked: fill them in before running it.', entry.method, entry.pathWithQuery);
    void vscode.window.showInformationMessage(note);
    return script;
  }

  private async resolve(argument: unknown, title: string): Promise<HistoryEntry | undefined> {
    const id = typeof argument === 'string' ? argument : (argument as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string') return this.pick(title);
    const entry = requestHistory(this.services).find(id);
    if (!entry) {
      void vscode.window.showWarningMessage(vscode.l10n.t('That request is no longer in the history.'));
      return undefined;
    }
    const active = this.services.profiles.active;
    if (active?.id !== entry.profileId) {
      void vscode.window.showWarningMessage(vscode.l10n.t('That request was sent with another profile: switch to it first.'));
      return undefined;
    }
    return entry;
  }

  private async pick(title: string): Promise<HistoryEntry | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const entries = requestHistory(this.services).list(profile.id);
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(`${vscode.l10n.t('No requests yet: Send Signed Request records them here.')} ${historyScope()}`);
      return undefined;
    }
    const items = entries.map((entry) => ({
      label: vscode.l10n.t('{0} {1} {2}', entry.outcome === 'ok' ? '$(pass)' : '$(error)', entry.method, entry.pathWithQuery),
      description: vscode.l10n.t('{0}{1} · {2} ms', entry.status !== undefined ? `HTTP ${entry.status} · ` : '', entry.outcome, entry.elapsedMs),
      detail: entry.replayable
        ? new Date(entry.at).toLocaleString()
        : vscode.l10n.t('{0} · secret fields masked: not replayable', new Date(entry.at).toLocaleString()),
      entry,
    }));
    const picked = await vscode.window.showQuickPick(items, { title: `${title} (${profile.label})`, placeHolder: historyScope(), matchOnDescription: true });
    return picked?.entry;
  }
}

/** What the history keeps, said where it is shown (the views' own requests go to the log, not here). */
export function historyScope(): string {
  return vscode.l10n.t('Keeps the requests sent with Send Signed Request; pauses, creates and scales from the views are in the Compute Toolkit log (Show Logs).');
}

/** The Send Signed Request argument for a stored input (see parseRequestArgument). */
export function toArgument(input: RequestInput): unknown {
  if (input.kind === 'raw') return { raw: input.request };
  return { operation: input.operation, params: input.params, ...(input.encrypt !== undefined ? { encrypt: input.encrypt } : {}) };
}

function prepare(services: Services, input: RequestInput): Promise<PreparedRequest> {
  const client = services.computeClient();
  if (input.kind === 'raw') return client.prepareRaw(input.request);
  return client.prepare(input.operation, input.params as OperationParams<OperationId>, input.encrypt === undefined ? {} : { encrypt: input.encrypt });
}
