// Create Profile: label, environment, key mode, then the three addresses (defaults from settings), with
// a step counter and Back. Edit Profile reuses the single-field questions.

import * as vscode from 'vscode';
import type { AuthMode } from '../../core/compute/api';
import { ConfigError } from '../../core/errors';
import { assertSecureUrl } from '../../core/http/url';
import type { Config } from '../config';
import { MultiStepInput, type Step } from '../ui/multiStepInput';
import type { Environment, Profile } from '../services';
import { configText } from '../errors/errorWords';

export type ProfileDraft = Omit<Profile, 'id'>;

const TITLE = vscode.l10n.t('Create Compute Profile');
const TOTAL_STEPS = 6;

interface Choice<T> extends vscode.QuickPickItem {
  value: T;
}

export const ENVIRONMENT_CHOICES: readonly Choice<Environment>[] = [
  { label: vscode.l10n.t('dev'), value: 'dev', description: vscode.l10n.t('development') },
  { label: vscode.l10n.t('test'), value: 'test', description: vscode.l10n.t('testing') },
  { label: vscode.l10n.t('prod'), value: 'prod', description: vscode.l10n.t('production: shown in the warning colour, stronger confirmations') },
];

const MODE_CHOICES: readonly Choice<AuthMode>[] = [
  {
    label: vscode.l10n.t('RSA signature'),
    value: 'rsa',
    description: vscode.l10n.t('token + signed requests (recommended for production)'),
    detail: vscode.l10n.t('You keep a private key; the console gets your public key and returns a token and the platform public key.'),
  },
  {
    label: vscode.l10n.t('Token'),
    value: 'token',
    description: vscode.l10n.t('token header only (development and test)'),
    detail: vscode.l10n.t('Simplest; cannot call encrypted endpoints such as the storage credential check.'),
  },
];

/** Runs the creation wizard; undefined when the user cancels. */
export async function promptNewProfile(config: Config, takenLabels: readonly string[]): Promise<ProfileDraft | undefined> {
  const draft: ProfileDraft = {
    label: '',
    environment: 'dev',
    mode: 'rsa',
    computeBaseUrl: config.defaultComputeBaseUrl,
    modelApiBaseUrl: config.defaultModelApiBaseUrl,
    consoleUrl: config.defaultConsoleUrl,
  };

  const askLabel: Step = async (input) => {
    draft.label = await input.showInputBox({
      title: TITLE,
      step: 1,
      totalSteps: TOTAL_STEPS,
      value: draft.label,
      prompt: vscode.l10n.t('A name for this profile, e.g. "Team prod" (shown in the status bar)'),
      validate: (value) => validateLabel(value, takenLabels),
    });
    draft.label = draft.label.trim();
    return askEnvironment;
  };
  const askEnvironment: Step = async (input) => {
    const picked = await input.showQuickPick({
      title: TITLE,
      step: 2,
      totalSteps: TOTAL_STEPS,
      items: ENVIRONMENT_CHOICES,
      activeItem: ENVIRONMENT_CHOICES.find((choice) => choice.value === draft.environment),
      placeholder: vscode.l10n.t('Environment (the platform recommends a separate key pair for each)'),
    });
    draft.environment = picked.value;
    return askMode;
  };
  const askMode: Step = async (input) => {
    const picked = await input.showQuickPick({
      title: TITLE,
      step: 3,
      totalSteps: TOTAL_STEPS,
      items: MODE_CHOICES,
      activeItem: MODE_CHOICES.find((choice) => choice.value === draft.mode),
      placeholder: vscode.l10n.t('Key mode: chosen when the key is created in the console, and fixed for that key'),
    });
    draft.mode = picked.value;
    return askComputeUrl;
  };
  const askUrl =
    (step: number, field: 'computeBaseUrl' | 'modelApiBaseUrl' | 'consoleUrl', prompt: string, next: Step | undefined): Step =>
    async (input) => {
      draft[field] = normaliseUrl(
        await input.showInputBox({ title: TITLE, step, totalSteps: TOTAL_STEPS, value: draft[field], prompt, validate: validateUrl }),
      );
      return next;
    };
  const askConsoleUrl = askUrl(6, 'consoleUrl', vscode.l10n.t('Console address (key management lives at /settings/key)'), undefined);
  const askModelUrl = askUrl(5, 'modelApiBaseUrl', vscode.l10n.t('Model inference API base address, including the version segment (…/v1)'), askConsoleUrl);
  const askComputeUrl = askUrl(4, 'computeBaseUrl', vscode.l10n.t('Compute Open API base address (paths carry /api/…)'), askModelUrl);

  return (await MultiStepInput.run(askLabel)) ? draft : undefined;
}

export function validateLabel(value: string, takenLabels: readonly string[]): string | undefined {
  const label = value.trim();
  if (label === '') return vscode.l10n.t('Enter a name.');
  if (label.length > 40) return vscode.l10n.t('Keep it under 40 characters: it is shown in the status bar.');
  if (takenLabels.some((taken) => taken.toLowerCase() === label.toLowerCase())) return vscode.l10n.t('A profile named "{0}" already exists.', label);
  return undefined;
}

/** https, or plain http to a loopback address only (the core's rule); the message says how to fix it. */
export function validateUrl(value: string): string | undefined {
  try {
    assertSecureUrl(value);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return configText(error);
    throw error;
  }
}

export function normaliseUrl(value: string): string {
  return assertSecureUrl(value).toString().replace(/\/+$/, '');
}
