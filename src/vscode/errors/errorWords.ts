// The words of an error classification (core/errors/classify.ts) in the display language: one sentence
// per message key, hint key and diagnosed cause, and the core's message keys (core/errors/messages.ts)
// looked up in the one string bundle by their English template. The renderers (describeError,
// renderers.ts) only join them.

import * as vscode from 'vscode';
import type { LikelyCause } from '../../core/compute/api';
import type { ErrorClassification, ErrorHintKey, ErrorValues } from '../../core/errors/classify';
import type { CoreWords, MissingSetup } from '../../core/errors';
import { wordText, type CoreText } from '../../core/errors/messages';
import { duration } from '../../core/duration';
import { errorMessage } from '../../shared/errorMessage';

/**
 * A core message in the display language: its English template is the bundle's key (scripts/l10n-export.mjs
 * exports every template), so a key needs no editor entry; nested messages are worded too.
 */
export function coreWords(text: CoreText): string {
  return wordText(text, (template, args) => vscode.l10n.t(template, ...args));
}

/**
 * A bad-input error's message and hint in the display language: a core error's message keys worded
 * here, otherwise its own text (the editor layer's errors are worded where they are thrown).
 */
export function configText(error: { detail?: string; message?: string; hint?: string | undefined; words?: CoreWords | undefined }): string {
  const message = error.words ? coreWords(error.words.message) : (error.detail ?? error.message ?? '');
  const hint = error.words?.hint ? coreWords(error.words.hint) : error.hint;
  return hint ? `${message} ${hint}` : message;
}

/** An error's message (and hint) in the display language: a core error's keys worded, otherwise its own text. */
export function wordedError(error: unknown): { message: string; hint: string | undefined } {
  const words = typeof error === 'object' && error !== null ? (error as { words?: CoreWords }).words : undefined;
  const hint = typeof error === 'object' && error !== null ? (error as { hint?: unknown }).hint : undefined;
  return {
    message: words ? coreWords(words.message) : errorMessage(error),
    hint: words?.hint ? coreWords(words.hint) : typeof hint === 'string' && hint ? hint : undefined,
  };
}

/** "API token", "private key", … in the display language. */
export function setupName(missing: MissingSetup): string {
  switch (missing) {
    case 'profile':
      return vscode.l10n.t('compute profile');
    case 'apiToken':
      return vscode.l10n.t('API token');
    case 'privateKey':
      return vscode.l10n.t('private key');
    case 'platformPublicKey':
      return vscode.l10n.t('platform public key');
    case 'modelApiKey':
      return vscode.l10n.t('model API key');
    case 'chatModel':
      return vscode.l10n.t('chat model');
  }
}

function missingSetupText(values: ErrorValues): string {
  const missing = values.missing ?? 'profile';
  if (missing === 'profile') return vscode.l10n.t('No compute profile is configured. Create a profile or connect to the local sandbox.');
  if (missing === 'chatModel') return vscode.l10n.t('No chat model is selected: the model API lists no chat models for this profile.');
  if (missing === 'modelApiKey') return vscode.l10n.t('Profile "{0}" has no model API key. Set one to chat with the hosted models.', values.profileLabel ?? '');
  return vscode.l10n.t('Profile "{0}" has no {1}.', values.profileLabel ?? '', setupName(missing));
}

function timeoutPhase(phase: ErrorValues['timeoutPhase']): string {
  switch (phase) {
    case 'connect':
      return vscode.l10n.t('connecting');
    case 'first-token':
      return vscode.l10n.t('waiting for the first token');
    case 'idle':
      return vscode.l10n.t('between chunks');
    default:
      return vscode.l10n.t('whole request');
  }
}

/** What happened, without the context ("Load tasks failed: …" is the renderer's). */
export function whatHappened(classification: ErrorClassification): string {
  const { values } = classification;
  switch (classification.message) {
    case 'missing-setup':
      return missingSetupText(values);
    case 'config':
      return configText(values);
    case 'platform-refused':
      return values.serverMessage
        ? vscode.l10n.t('the platform answered {0} "{1}".', values.code ?? '?', values.serverMessage)
        : vscode.l10n.t('the platform answered {0}.', values.code ?? '?');
    case 'html-page':
      return values.excerpt
        ? vscode.l10n.t('HTTP {0} with an HTML page ("{1}"), not the API\'s JSON.', values.status ?? '?', values.excerpt)
        : vscode.l10n.t('HTTP {0} with an HTML page, not the API\'s JSON.', values.status ?? '?');
    case 'rate-limited':
      return values.retryAfterSeconds !== undefined
        ? vscode.l10n.t('Rate limited (HTTP 429); the server asked to wait {0}', coreWords(duration(values.retryAfterSeconds, { round: 'up' })))
        : vscode.l10n.t('Rate limited (HTTP 429)');
    case 'timeout':
      return vscode.l10n.t('Timed out after {0} ms ({1})', values.timeoutMs ?? 0, timeoutPhase(values.timeoutPhase));
    case 'model-refused-key':
      return vscode.l10n.t('The model API refused the key of profile "{0}" ({1}).', values.profileLabel ?? '', values.detail);
    case 'failed':
      // A core error's own message keys in the display language, else its text as it is.
      return values.words ? coreWords(values.words.message) : values.detail;
  }
}

export function hintText(hint: ErrorHintKey | undefined): string | undefined {
  switch (hint) {
    case undefined:
      return undefined;
    case 'gateway-failing':
      return vscode.l10n.t('A gateway in front of the API is failing; retry later.');
    case 'check-addresses':
      return vscode.l10n.t('Check the profile\'s addresses (Edit Profile): this one may not be the API\'s base URL.');
    case 'model-key':
      return vscode.l10n.t('Check it is the MaaS key of this profile from the platform console (an Open API token does not work).');
    case 'model-rate-limit':
      return vscode.l10n.t('The server is rate limiting requests; wait a moment and retry.');
    case 'model-timeout':
      return vscode.l10n.t('The server did not answer in time (see computeToolkit.chat.requestTimeoutSeconds).');
    case 'model-unreachable':
      return vscode.l10n.t('The model API could not be reached: check the profile\'s model API URL and your connection.');
    case 'model-protocol':
      return vscode.l10n.t('The server sent a reply the chat could not understand.');
  }
}

function clockOffset(offsetMs: number): string {
  const amount = coreWords(duration(Math.abs(offsetMs) / 1000, { round: 'nearest' }));
  return offsetMs > 0 ? vscode.l10n.t('{0} behind', amount) : vscode.l10n.t('{0} ahead of', amount);
}

/** The diagnosed cause in the display language; undefined when nothing local explains it. */
export function causeText(cause: LikelyCause | undefined): string | undefined {
  switch (cause?.kind) {
    case undefined:
    case 'unknown':
      return undefined;
    case 'version-type':
      return vscode.l10n.t('The header version was "{0}"; the platform expects the string "1.0.0".', cause.version ?? '?');
    case 'timestamp-format':
      return vscode.l10n.t('The timestamp "{0}" is not Unix time in milliseconds (13 digits); 10 digits means seconds.', cause.timestamp ?? '?');
    case 'clock-skew':
      return vscode.l10n.t(
        "This computer's clock is {0} the server's; the platform accepts timestamps within 5 minutes. The client now corrects for the offset, so a retry should pass; fix the system clock (enable network time) for a lasting cure.",
        clockOffset(cause.offsetMs),
      );
    case 'signature-mismatch-local':
      return vscode.l10n.t('The signature we sent does not verify with the public half of the configured private key: the key is damaged or the pair is mismatched. Re-import or regenerate the private key.');
    case 'token-or-key-unregistered':
      return cause.encrypted === true
        ? vscode.l10n.t('The signature, timestamp, clock and version are fine, so the platform refused the credentials themselves. Most often the API token is wrong, revoked or of another account: set it again from the console. Otherwise the platform holds a different public key for this token, or the platform public key used for encryption is not the one the console showed: compare the key fingerprints with the console.')
        : vscode.l10n.t('The signature, timestamp, clock and version are fine, so the platform refused the credentials themselves. Most often the API token is wrong, revoked or of another account: set it again from the console. Otherwise the platform holds a different public key for this token: compare the key fingerprint with the console.');
    case 'token':
      return vscode.l10n.t('Token mode: the timestamp, clock and version are fine, so the token itself was refused: it may be revoked, mistyped, or belong to an RSA-mode key (which needs a signature).');
    case 'encryption-key':
      return vscode.l10n.t('The platform could not decrypt the body: the platform public key may not be the one the console showed for this token.');
    default:
      // A cause the core added before this table learned it: its own (English) explanation.
      return (cause as { detail?: string }).detail;
  }
}
