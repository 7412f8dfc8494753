// The Send Signed Request response document: status, headers (secrets masked), timing and body of every
// attempt, and for a failure its diagnosis. Everything from the server is untrusted: it is shown in
// fenced blocks no content can close, cut at a bound, and never interpreted. A task's env values can be
// secrets: masked in both bodies, as wherever a task is shown (Reveal Task Env Values shows them).

import * as vscode from 'vscode';
import type { ExchangeRecord, LikelyCause } from '../../core/compute/api';
import { causeText, wordedError } from '../errors/errorWords';
import { ConfigError } from '../../core/errors';
import { maskTaskEnv } from '../../core/tasks/envMask';
import { fence } from './markdownBlocks';
import { counted } from '../ui/counts';

export interface ResponseView {
  title: string;
  profileLabel: string;
  sentAt: Date;
  exchanges: readonly ExchangeRecord[];
  outcome: { ok: true; data: unknown } | { ok: false; error: unknown };
}

/** An error page is shown as its beginning only. */
const PAGE_EXCERPT_CHARS = 2000;
const JSON_DISPLAY_CHARS = 32 * 1024;

export function renderResponse(view: ResponseView): string {
  const out: string[] = [];
  const last = view.exchanges[view.exchanges.length - 1];
  const totalMs = view.exchanges.reduce((sum, exchange) => sum + exchange.elapsedMs, 0);
  out.push(`# ${vscode.l10n.t('Response: {0}', view.title)}`, '');
  out.push(
    vscode.l10n.t('Profile **{0}** · sent {1} · {2} ms in {3}', view.profileLabel, view.sentAt.toISOString(), totalMs, counted(view.exchanges.length, 'attempt')),
    '',
  );
  out.push(`## ${vscode.l10n.t('Result')}`, '');
  out.push(`- ${vscode.l10n.t('Status')}: ${last?.status !== undefined ? `HTTP ${last.status}` : vscode.l10n.t('no answer')}`);
  out.push(...describeOutcome(view.outcome), '');

  if (last) {
    out.push(`## ${vscode.l10n.t('Request')}`, '');
    out.push(fence('text', `${last.request.method} ${last.request.url}`), '');
    out.push(vscode.l10n.t('Token and signature masked (first 4 + last 4 characters).'), '');
    out.push(fence('http', Object.entries(last.request.displayHeaders).map(([name, value]) => `${name}: ${value}`).join('\n')), '');
    if (last.request.body !== '') out.push(last.request.encrypted ? fence('text', last.request.body) : fence('json', maskEnvInJson(last.request.body)), '');

    out.push(`## ${vscode.l10n.t('Response headers')}`, '');
    out.push(
      last.responseHeaders.length > 0 ? fence('http', last.responseHeaders.map(([name, value]) => `${name}: ${value}`).join('\n')) : vscode.l10n.t('None (no answer).'),
      '',
    );
    out.push(`## ${vscode.l10n.t('Response body')}`, '');
    out.push(...renderBody(last), '');
  }

  if (view.exchanges.length > 1) {
    out.push(`## ${vscode.l10n.t('Attempts')}`, '');
    // Numbered in order sent: a task detail refused as POST and asked again as GET restarts `attempt`.
    for (const [index, exchange] of view.exchanges.entries()) {
      const answer = exchange.status !== undefined ? `HTTP ${exchange.status}` : (exchange.failure ?? vscode.l10n.t('no answer'));
      out.push(`${index + 1}. ${exchange.request.method} ${inline(exchange.request.pathWithQuery)} → ${inline(answer)} (${vscode.l10n.t('{0} ms, timestamp {1}', exchange.elapsedMs, exchange.request.timestamp)})`);
    }
    out.push('');
  }
  return out.join('\n');
}

function describeOutcome(outcome: ResponseView['outcome']): string[] {
  if (outcome.ok) return [`- ${vscode.l10n.t('Outcome')}: ${vscode.l10n.t('success (envelope code 0000)')}`];
  const error = outcome.error;
  const worded = wordedError(error);
  const lines = [`- ${vscode.l10n.t('Outcome')}: ${inline(worded.message)}`];
  if (error instanceof ConfigError && worded.hint) lines.push(`- ${vscode.l10n.t('Hint')}: ${inline(worded.hint)}`);
  const cause = (error as { likelyCause?: LikelyCause }).likelyCause;
  // The cause in the display language (errorWords.ts); its English detail when nothing local explains it.
  const why = causeText(cause) ?? cause?.detail;
  if (cause && typeof why === 'string') lines.push(`- ${vscode.l10n.t('Likely cause')} (${inline(cause.kind)}): ${inline(why)}`);
  return lines;
}

function renderBody(exchange: ExchangeRecord): string[] {
  if (exchange.failure !== undefined) return [vscode.l10n.t('No body: {0}', inline(exchange.failure))];
  const text = exchange.responseBody;
  if (text === '') return [vscode.l10n.t('Empty.')];
  const cutNote =
    exchange.responseBodyChars > text.length ? [vscode.l10n.t('The first {0} of {1} characters.', text.length, exchange.responseBodyChars), ''] : [];
  const headers = new Map(exchange.responseHeaders.map(([name, value]) => [name.toLowerCase(), value]));
  if (/html/i.test(headers.get('content-type') ?? '') || /^\s*</.test(text)) {
    const page = text.slice(0, PAGE_EXCERPT_CHARS);
    return [vscode.l10n.t('An HTML page (not the platform envelope), first {0} of {1} characters:', page.length, exchange.responseBodyChars), '', fence('html', page)];
  }
  try {
    const pretty = JSON.stringify(maskTaskEnv(JSON.parse(text) as unknown), null, 2);
    if (pretty.length <= JSON_DISPLAY_CHARS) return [...cutNote, fence('json', pretty)];
    return [vscode.l10n.t('JSON of {0} characters, too long to show here; its first part (env values masked):', exchange.responseBodyChars), '', fence('json', pretty.slice(0, JSON_DISPLAY_CHARS))];
  } catch {
    // Not JSON (or cut inside it): shown as text, unless it may hold env values that cannot be masked unparsed.
  }
  if (ENV_FIELD.test(text)) return [vscode.l10n.t('{0} characters that are not complete JSON and hold an env field: not shown, its values may be secrets.', exchange.responseBodyChars)];
  return [...cutNote, fence('text', text.slice(0, JSON_DISPLAY_CHARS))];
}

const ENV_FIELD = /"(env|envs|environment)"\s*:/;

/** The body as sent with env values masked; the text itself when it is not JSON. */
function maskEnvInJson(body: string): string {
  try {
    return JSON.stringify(maskTaskEnv(JSON.parse(body) as unknown));
  } catch {
    return body;
  }
}

/** One line, no backticks: safe in a list item. */
function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/`/g, "'").slice(0, 2000);
}
