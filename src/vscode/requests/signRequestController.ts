// Sign Request (show exactly what would be signed and sent), Send Signed Request (send it, show the
// answer) and Measure Clock Skew. Input comes from a command argument or the step-by-step wizard.

import * as vscode from 'vscode';
import { errorText } from '../errors/errorText';
import type {
  CallOptions,
  ClockSkew,
  ComputeClient,
  ExchangeRecord,
  OperationEffect,
  OperationId,
  OperationParams,
  OperationSpec,
  PreparedRequest,
} from '../../core/compute/api';
import type { ExtensionServices as Services } from '../services';
import type { Profile } from '../services';
import { abortSignalFor } from '../ui/cancellation';
import { methodNote, renderSignRequest } from './renderSignRequest';
import { describeRequest, parseRequestArgument, type RequestInput } from './requestInput';
import { promptRequest } from './requestWizard';
import { renderResponse, type ResponseView } from './renderResponse';
import { outcomeLabel, requestHistory } from './historyStore';
import type { HistoryEntry } from './requestHistory';
import { errorMessage } from '../../shared/errorMessage';

export interface SignRequestResult {
  input: RequestInput;
  prepared: PreparedRequest;
  /** The markdown shown in the read-only document. */
  text: string;
  uri: vscode.Uri;
}

export interface SendRequestResult {
  input: RequestInput;
  /** The envelope's data; undefined when the request failed (the document says why). */
  data: unknown;
  ok: boolean;
  /** The response document's markdown: status, headers (masked), timing, body. */
  text: string;
  exchanges: ExchangeRecord[];
  uri: vscode.Uri;
  /** The history entry recorded for it (absent when the history is turned off). */
  historyId?: string;
}

/** The request Sign Request last showed in this window: what Compare with a Failing Request compares by default. */
let lastSigned: RequestInput | undefined;
export function lastSignedInput(): RequestInput | undefined {
  return lastSigned;
}

export const SIGN_REQUEST_DOCUMENT = { key: 'sign-request', title: vscode.l10n.t('Sign Request.md') } as const;

export class SignRequestController {
  constructor(private readonly services: Services) {}

  async sign(argument: unknown): Promise<SignRequestResult | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const client = this.services.computeClient();
    const input = await this.resolveInput(argument, client, wizardTitle(vscode.l10n.t('Sign Request'), profile));
    if (!input) return undefined;
    const title = describeRequest(input, client.operations);
    lastSigned = input;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Signing "{0}"…', title), cancellable: true },
      async (_progress, token) => {
        const signal = abortSignalFor(token);
        const prepared = await prepare(client, input, { signal });
        const skew = await measure(client, signal);
        const operation = input.kind === 'operation' ? input.operation : undefined;
        const catalogMethod = client.operations.find((spec) => spec.id === operation)?.method;
        const note = methodNote(operation, catalogMethod, prepared.method);
        const text = renderSignRequest({ title, profile, prepared, skew, generatedAt: new Date(), ...(note ? { note } : {}) });
        const editor = await this.services.openReadOnlyDocument({
          ...SIGN_REQUEST_DOCUMENT,
          language: 'markdown',
          content: () => Promise.resolve(text),
        });
        this.services.logger.info(`Sign Request: ${prepared.method} ${prepared.pathWithQuery} (${prepared.mode} mode)`);
        return { input, prepared, text: editor.document.getText(), uri: editor.document.uri };
      },
    );
  }

  async send(argument: unknown): Promise<SendRequestResult | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const client = this.services.computeClient();
    const input = await this.resolveInput(argument, client, wizardTitle(vscode.l10n.t('Send Signed Request'), profile));
    if (!input) return undefined;
    const title = describeRequest(input, client.operations);
    if (profile.environment === 'prod' && !(await confirmProductionWrite(input, title, profile.label, client.operations))) return undefined;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Sending "{0}"…', title), cancellable: true },
      async (_progress, token) => {
        const signal = abortSignalFor(token);
        const exchanges: ExchangeRecord[] = [];
        const onExchange = (exchange: ExchangeRecord): void => void exchanges.push(exchange);
        const sentAt = new Date();
        let outcome: ResponseView['outcome'];
        try {
          const data =
            input.kind === 'raw'
              ? await client.send(input.request, { signal, onExchange })
              : await client.call(input.operation, input.params as OperationParams<OperationId>, { ...callOptions(input.encrypt, signal), onExchange });
          outcome = { ok: true, data };
        } catch (error) {
          // A cancelled send is not an answer to show; everything else is.
          if (signal.aborted || exchanges.length === 0) throw error;
          outcome = { ok: false, error };
        }
        const name = input.kind === 'raw' ? 'request' : input.operation;
        const text = renderResponse({ title, profileLabel: profile.label, sentAt, exchanges, outcome });
        const editor = await this.services.openReadOnlyDocument({
          key: `response/${name}`,
          title: vscode.l10n.t('Response {0}.md', name),
          language: 'markdown',
          content: () => Promise.resolve(text),
        });
        const entry = await this.recordHistory(profile, title, input, sentAt, exchanges, outcome);
        return {
          input,
          data: outcome.ok ? outcome.data : undefined,
          ok: outcome.ok,
          text: editor.document.getText(),
          exchanges,
          uri: editor.document.uri,
          ...(entry ? { historyId: entry.id } : {}),
        };
      },
    );
  }

  private async recordHistory(
    profile: Profile,
    title: string,
    input: RequestInput,
    sentAt: Date,
    exchanges: readonly ExchangeRecord[],
    outcome: ResponseView['outcome'],
  ): Promise<HistoryEntry | undefined> {
    const last = exchanges[exchanges.length - 1];
    if (!last) return undefined;
    try {
      return await requestHistory(this.services).record(
        {
          at: sentAt.getTime(),
          profileId: profile.id,
          title,
          method: last.request.method,
          pathWithQuery: last.request.pathWithQuery,
          ...(last.status !== undefined ? { status: last.status } : {}),
          outcome: outcome.ok ? 'ok' : outcomeLabel(outcome.error),
          elapsedMs: exchanges.reduce((sum, exchange) => sum + exchange.elapsedMs, 0),
        },
        input,
        (text) => this.services.redactor.redact(text),
      );
    } catch (error) {
      this.services.logger.warn(`Request history: could not record the request: ${errorMessage(error)}`);
      return undefined;
    }
  }

  async measureClockSkew(): Promise<ClockSkew | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const client = this.services.computeClient();
    const skew = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Measuring clock skew against {0}…', profile.computeBaseUrl), cancellable: true },
      (_progress, token) => client.measureClockSkew(abortSignalFor(token)),
    );
    const seconds = (Math.abs(skew.offsetMs) / 1000).toFixed(1);
    const message =
      skew.offsetMs > 0
        ? vscode.l10n.t("This computer's clock is {0} s behind the server's (round trip {1} ms).", seconds, skew.rttMs)
        : vscode.l10n.t("This computer's clock is {0} s ahead of the server's (round trip {1} ms).", seconds, skew.rttMs);
    if (skew.outsideWindow) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} That is outside the 5-minute window: signed requests are rejected as expired until the system clock is fixed (the client corrects by the measured offset meanwhile).',
          message,
        ),
      );
    } else {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} Inside the 5-minute window.', message));
    }
    return skew;
  }

  private async resolveInput(argument: unknown, client: ComputeClient, title: string): Promise<RequestInput | undefined> {
    const parsed = parseRequestArgument(argument, client.operations);
    if (parsed === undefined) return promptRequest(title, client.operations);
    if (parsed.kind === 'pick-params') return promptRequest(title, client.operations, parsed.operation);
    return parsed;
  }
}

/** Names the profile and its mode in every step: what is signed depends on both (token mode signs nothing). */
export function wizardTitle(action: string, profile: Pick<Profile, 'label' | 'mode' | 'environment'>): string {
  const prod = profile.environment === 'prod';
  if (profile.mode === 'rsa') {
    return prod
      ? vscode.l10n.t('{0} with "{1}" (RSA mode, PRODUCTION)', action, profile.label)
      : vscode.l10n.t('{0} with "{1}" (RSA mode)', action, profile.label);
  }
  return prod
    ? vscode.l10n.t('{0} with "{1}" (token mode, PRODUCTION)', action, profile.label)
    : vscode.l10n.t('{0} with "{1}" (token mode)', action, profile.label);
}

function callOptions(encrypt: boolean | undefined, signal: AbortSignal): CallOptions {
  return encrypt === undefined ? { signal } : { signal, encrypt };
}

function prepare(client: ComputeClient, input: RequestInput, options: { signal: AbortSignal }): Promise<PreparedRequest> {
  if (input.kind === 'raw') return client.prepareRaw(input.request, options);
  // The parameters were checked field by field against the catalog; the core validates them again.
  return client.prepare(input.operation, input.params as OperationParams<OperationId>, callOptions(input.encrypt, options.signal));
}

/** The clock is context, not the point: a failed measurement is shown in the document, not thrown. */
async function measure(client: ComputeClient, signal: AbortSignal): Promise<{ ok: true; value: ClockSkew } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await client.measureClockSkew(signal) };
  } catch (error) {
    if (signal.aborted) throw error;
    return { ok: false, error: errorText(error) };
  }
}

/**
 * The effect of what is about to be sent: a catalog operation's declared effect (core/compute/operations.ts);
 * a hand-written request is a read only when it is a GET.
 */
export function requestEffect(input: RequestInput, operations: readonly OperationSpec[]): OperationEffect {
  if (input.kind === 'raw') return input.request.method === 'GET' ? 'read' : 'write';
  // An operation the catalog does not know cannot be called; treat it as the most dangerous kind.
  return operations.find((operation) => operation.id === input.operation)?.effect ?? 'destructive';
}

/** Sending by hand on production can stop or create real, billed tasks: say so before it happens. */
async function confirmProductionWrite(input: RequestInput, title: string, profileLabel: string, operations: readonly OperationSpec[]): Promise<boolean> {
  const effect = requestEffect(input, operations);
  if (effect === 'read') return true;
  const send = vscode.l10n.t('Send to Production');
  const detail =
    effect === 'destructive'
      ? vscode.l10n.t('This request deletes real resources on the platform. It cannot be undone.')
      : vscode.l10n.t('This request can change or bill real resources.');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Send "{0}" with the production profile "{1}"?', title, profileLabel), { modal: true, detail }, send);
  return answer === send;
}
