// Request History…, Replay Request and Copy Request as curl: the redacted history of Send Signed
// Request, sent again re-signed with a fresh timestamp, or copied as a curl script whose secrets are
// shell variables; beside it, newest first, what the views, commands, agent tools, budgets and pause
// timers sent (requestActivity.ts), each saying where it came from.

import * as vscode from 'vscode';
import type { OperationId, OperationParams, PreparedRequest } from '../../core/compute/api';
import type { ExtensionServices as Services } from '../services';
import { requestActivity, requestHistory } from './historyStore';
import type { ActivityEntry } from './requestActivity';
import { curlScript } from './renderSignRequest';
import type { HistoryEntry } from './requestHistory';
import type { RequestInput } from './requestInput';
import { SignRequestController, type SendRequestResult } from './signRequestController';
import { formatDateTime } from '../ui/dates';

export class RequestHistoryController {
  constructor(private readonly services: Services) {}

  /** Lists the active profile's history; a picked hand-sent entry is replayed or copied as curl. */
  async show(): Promise<HistoryEntry | ActivityEntry | undefined> {
    const entry = await this.pick(vscode.l10n.t('Request History'), true);
    if (!entry) return undefined;
    if (!('id' in entry)) return this.showActivity(entry);
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

  /** An entry the extension sent by itself: what it was and where it came from; nothing to replay. */
  private async showActivity(entry: ActivityEntry): Promise<ActivityEntry> {
    const logs = vscode.l10n.t('Show Logs');
    const picked = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        '{0} {1} ({2}) from {3}: {4}. The history keeps no body of it, so it cannot be replayed; the log has its details.',
        entry.method,
        entry.pathWithQuery,
        entry.operation,
        this.sourceText(entry),
        entry.status !== undefined ? `HTTP ${entry.status} · ${outcomeText(entry.outcome)}` : outcomeText(entry.outcome),
      ),
      logs,
    );
    if (picked === logs) this.services.showLogs();
    return entry;
  }

  /** Lists the history; with `withActivity`, the extension's own requests too (they cannot be replayed or copied). */
  private async pick(title: string, withActivity: true): Promise<HistoryEntry | ActivityEntry | undefined>;
  private async pick(title: string): Promise<HistoryEntry | undefined>;
  private async pick(title: string, withActivity = false): Promise<HistoryEntry | ActivityEntry | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const entries = requestHistory(this.services).list(profile.id);
    const activity = withActivity ? requestActivity(this.services).list(profile.id) : [];
    if (entries.length === 0 && activity.length === 0) {
      const none = withActivity
        ? vscode.l10n.t('No requests yet for this profile.')
        : vscode.l10n.t('No requests yet: Send Signed Request records them here.');
      void vscode.window.showInformationMessage(`${none} ${historyScope()}`);
      return undefined;
    }
    const items = this.items(entries, activity);
    const picked = await vscode.window.showQuickPick(items, { title: `${title} (${profile.label})`, placeHolder: historyScope(), matchOnDescription: true, matchOnDetail: true });
    return picked?.entry;
  }

  /** The picker's rows, newest first: hand-sent entries and (when given) the extension's own requests. */
  items(entries: readonly HistoryEntry[], activity: readonly ActivityEntry[]): (vscode.QuickPickItem & { at: number; entry: HistoryEntry | ActivityEntry })[] {
    const sent = vscode.l10n.t('Send Signed Request');
    return [
      ...entries.map((entry) => ({
        label: vscode.l10n.t('{0} {1} {2}', entry.outcome === 'ok' ? '$(pass)' : '$(error)', entry.method, entry.pathWithQuery),
        description: vscode.l10n.t('{0}{1} · {2} ms', entry.status !== undefined ? `HTTP ${entry.status} · ` : '', outcomeText(entry.outcome), entry.elapsedMs),
        detail: entry.replayable
          ? vscode.l10n.t('{0} · from {1}', formatDateTime(entry.at), sent)
          : vscode.l10n.t('{0} · from {1} · secret fields masked: not replayable', formatDateTime(entry.at), sent),
        at: entry.at,
        entry,
      })),
      ...activity.map((entry) => ({
        label: vscode.l10n.t('{0} {1} {2}', entry.outcome === 'ok' ? '$(pass)' : '$(error)', entry.method, entry.pathWithQuery),
        description: vscode.l10n.t('{0}{1} · {2} ms', entry.status !== undefined ? `HTTP ${entry.status} · ` : '', outcomeText(entry.outcome), entry.elapsedMs),
        detail:
          entry.attempt > 0
            ? vscode.l10n.t('{0} · from {1} · retry {2}', formatDateTime(entry.at), this.sourceText(entry), entry.attempt)
            : vscode.l10n.t('{0} · from {1}', formatDateTime(entry.at), this.sourceText(entry)),
        at: entry.at,
        entry,
      })),
    ].sort((a, b) => b.at - a.at);
  }

  /** Where an entry came from, in words: a command's title, an agent tool, a budget, a pause timer. */
  sourceText(entry: ActivityEntry): string {
    switch (entry.source) {
      case 'command':
        return vscode.l10n.t('the command "{0}"', commandTitle(this.services, entry.sourceName ?? ''));
      case 'tool':
        return vscode.l10n.t('the agent tool {0}', entry.sourceName ?? '');
      case 'budget':
        return vscode.l10n.t('a budget (auto-pause)');
      case 'timer':
        return vscode.l10n.t('a pause timer');
      default:
        return vscode.l10n.t('the extension in the background');
    }
  }
}

/**
 * A recorded outcome in words: 'ok', an error kind (historyStore.outcomeLabel) or 'error' are ours; a
 * platform code ("1001"), "HTTP 502" or a transport failure is shown as recorded.
 */
export function outcomeText(outcome: string): string {
  switch (outcome) {
    case 'ok':
      return vscode.l10n.t('succeeded');
    case 'error':
      return vscode.l10n.t('failed');
    case 'config':
      return vscode.l10n.t('local setup error');
    case 'api':
      return vscode.l10n.t('refused by the platform');
    case 'auth':
      return vscode.l10n.t('authentication failed');
    case 'http':
      return vscode.l10n.t('unexpected HTTP answer');
    case 'rate-limit':
      return vscode.l10n.t('rate limited');
    case 'timeout':
      return vscode.l10n.t('timed out');
    case 'aborted':
      return vscode.l10n.t('cancelled');
    case 'network':
      return vscode.l10n.t('network error');
    case 'protocol':
      return vscode.l10n.t('unreadable answer');
    case 'storage':
      return vscode.l10n.t('storage error');
    default:
      return outcome;
  }
}

/** A command's title as the palette shows it (the manifest's, translated by VS Code); its id otherwise. */
function commandTitle(services: Services, id: string): string {
  const contributes = (services.context.extension.packageJSON as { contributes?: { commands?: { command?: unknown; title?: unknown }[] } }).contributes;
  const title = contributes?.commands?.find((command) => command.command === id)?.title;
  return typeof title === 'string' && !title.startsWith('%') ? title : id;
}

/** What the history keeps, said where it is shown. */
export function historyScope(): string {
  return vscode.l10n.t(
    'Keeps the requests sent with Send Signed Request (replayable) and those the views, commands, agent tools, budgets and pause timers sent (method, path, status, time; never a body or a secret). Background polling reads are not kept: see Show Logs.',
  );
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
