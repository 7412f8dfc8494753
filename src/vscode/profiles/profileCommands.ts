// Create, edit, delete, switch profiles, and connect to the local sandbox.

import * as vscode from 'vscode';
import { ConfigError } from '../../core/errors';
import { Commands } from '../commandIds';
import type { ProfileAreaServices as Services } from './profileServices';
import { SANDBOX_URL_ENV, connectSandbox } from './connectSandbox';
import { newProfileId } from './profileRecord';
import { modeName } from '../ui/format';
import {
  ENVIRONMENT_CHOICES,
  normaliseUrl,
  promptNewProfile,
  validateLabel,
  validateUrl,
  type ProfileDraft,
} from './profileWizard';
import type { Profile } from '../services';
import { abortSignalFor } from '../ui/cancellation';
import { profileIdArgument, type CommandEntry } from '../commands/commandTable';

/** The profile a command acts on: the one named by its argument, else the active one (offering to create one). */
export async function targetProfile(services: Services, argument: unknown): Promise<Profile | undefined> {
  const id = profileIdArgument(argument);
  if (id === undefined) return services.requireProfile();
  const profile = services.profiles.find(id);
  if (!profile) throw new ConfigError(vscode.l10n.t('There is no profile with id "{0}".', id), vscode.l10n.t('Pick one with "Compute: Switch Profile".'));
  return profile;
}

export const profileCommands: readonly CommandEntry<Services>[] = [
  {
    id: Commands.profileCreate,
    doing: vscode.l10n.t('Create the profile'),
    create: (services) => async () => {
      const draft = await promptNewProfile(
        services.config,
        services.profiles.all.map((profile) => profile.label),
      );
      if (!draft) return undefined;
      const profile: Profile = { id: newProfileId(draft.label, services.profiles.all.map((p) => p.id)), ...draft };
      await services.profiles.upsert(profile);
      await services.profiles.setActive(profile.id);
      void offerSecretsFor(profile);
      return profile;
    },
  },

  {
    id: Commands.profileEdit,
    doing: vscode.l10n.t('Edit the profile'),
    create: (services) => async (argument?: unknown) => {
      const profile = profileIdArgument(argument) ? await targetProfile(services, argument) : await pickProfile(services, vscode.l10n.t('Profile to edit'));
      if (!profile) return undefined;
      return editProfile(services, profile);
    },
  },

  {
    id: Commands.profileDelete,
    doing: vscode.l10n.t('Delete the profile'),
    create: (services) => async (argument?: unknown) => {
      const profile = profileIdArgument(argument) ? await targetProfile(services, argument) : await pickProfile(services, vscode.l10n.t('Profile to delete'));
      if (!profile) return false;
      const confirm = vscode.l10n.t('Delete "{0}"', profile.label);
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the profile "{0}" ({1}, {2})?', profile.label, profile.environment, modeName(profile.mode)),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Its API token, private key, platform public key and model API key are removed from SecretStorage. A deleted private key cannot be recovered; the key registered in the console keeps working elsewhere until you revoke it there.',
          ),
        },
        confirm,
      );
      if (answer !== confirm) return false;
      await services.profiles.remove(profile.id);
      services.logger.info(`Deleted profile ${profile.label}`);
      return true;
    },
  },

  {
    id: Commands.profileSwitch,
    doing: vscode.l10n.t('Switch profile'),
    create: (services) => async (argument?: unknown) => {
      const id = profileIdArgument(argument);
      if (id !== undefined) {
        await services.profiles.setActive(id);
        return services.profiles.active;
      }
      return switchInteractively(services);
    },
  },

  {
    id: Commands.profileConnectSandbox,
    doing: vscode.l10n.t('Connect to the local sandbox'),
    create: (services) => async (argument?: unknown) => {
      const url = typeof argument === 'string' && argument !== '' ? argument : await askSandboxUrl();
      if (url === undefined) return undefined;
      const profiles = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Connecting to the sandbox at {0}…', url), cancellable: true },
        (_progress, token) => connectSandbox(services.profiles, url, abortSignalFor(token)),
      );
      await services.refreshRedactor();
      services.logger.info(`Connected to the sandbox at ${profiles.rsa.computeBaseUrl}`);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Connected to the local sandbox: "{0}" is active, "{1}" is available for token mode.', profiles.rsa.label, profiles.token.label),
      );
      return profiles;
    },
  },
];

async function askSandboxUrl(): Promise<string | undefined> {
  const fromEnvironment = process.env[SANDBOX_URL_ENV];
  const value = fromEnvironment ?? 'http://127.0.0.1:';
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Connect to Local Sandbox'),
    prompt: vscode.l10n.t('Address printed by `npm run sandbox` (the sandbox serves its keys to this window only over loopback)'),
    value,
    valueSelection: fromEnvironment ? undefined : [value.length, value.length],
    ignoreFocusOut: true,
    validateInput: validateUrl,
  });
}

async function pickProfile(services: Services, placeholder: string): Promise<Profile | undefined> {
  const all = services.profiles.all;
  if (all.length === 0) return services.requireProfile();
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(profileItems(services), { placeHolder: placeholder });
  return picked?.profile;
}

interface ProfileItem extends vscode.QuickPickItem {
  profile: Profile;
}

function profileItems(services: Services): ProfileItem[] {
  const activeId = services.profiles.active?.id;
  return services.profiles.all.map((profile) => ({
    label: `${profile.id === activeId ? '$(check) ' : ''}${profile.label}`,
    description: `${profile.environment} · ${modeName(profile.mode)}`,
    detail: profile.computeBaseUrl,
    profile,
  }));
}

async function switchInteractively(services: Services): Promise<Profile | undefined> {
  type Item = vscode.QuickPickItem & { run: () => Thenable<unknown> };
  const items: Item[] = [
    ...profileItems(services).map((item) => ({ ...item, run: () => services.profiles.setActive(item.profile.id) })),
    { label: '', kind: vscode.QuickPickItemKind.Separator, run: async () => undefined },
    { label: vscode.l10n.t('$(add) Create Profile…'), run: () => vscode.commands.executeCommand(Commands.profileCreate) },
    { label: vscode.l10n.t('$(beaker) Connect to Local Sandbox…'), run: () => vscode.commands.executeCommand(Commands.profileConnectSandbox) },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: vscode.l10n.t('Switch the compute profile (trees, requests and chat follow at once)'),
  });
  if (!picked) return undefined;
  await picked.run();
  return services.profiles.active;
}

async function editProfile(services: Services, profile: Profile): Promise<Profile | undefined> {
  type Item = vscode.QuickPickItem & { run?: () => Promise<Partial<ProfileDraft> | undefined> };
  const secret = (label: string, command: string): Item => ({
    label,
    run: async () => {
      await vscode.commands.executeCommand(command, { profileId: profile.id });
      return undefined;
    },
  });
  const url = (field: 'computeBaseUrl' | 'modelApiBaseUrl' | 'consoleUrl', label: string): Item => ({
    label,
    description: profile[field],
    run: async () => {
      const value = await vscode.window.showInputBox({ title: label, value: profile[field], validateInput: validateUrl, ignoreFocusOut: true });
      return value === undefined ? undefined : { [field]: normaliseUrl(value) };
    },
  });
  const items: Item[] = [
    {
      label: vscode.l10n.t('Label'),
      description: profile.label,
      run: async () => {
        const others = services.profiles.all.filter((p) => p.id !== profile.id).map((p) => p.label);
        const value = await vscode.window.showInputBox({
          title: vscode.l10n.t('Profile label'),
          value: profile.label,
          validateInput: (text) => validateLabel(text, others),
        });
        return value === undefined ? undefined : { label: value.trim() };
      },
    },
    {
      label: vscode.l10n.t('Environment'),
      description: profile.environment,
      run: async () => {
        const picked = await vscode.window.showQuickPick(ENVIRONMENT_CHOICES, { placeHolder: vscode.l10n.t('Environment') });
        return picked ? { environment: picked.value } : undefined;
      },
    },
    url('computeBaseUrl', vscode.l10n.t('Compute API address')),
    url('modelApiBaseUrl', vscode.l10n.t('Model API address')),
    url('consoleUrl', vscode.l10n.t('Console address')),
    {
      label: vscode.l10n.t('Mode: {0}', modeName(profile.mode)),
      description: vscode.l10n.t('fixed: a key keeps the mode it was created with; create another profile for the other mode'),
    },
    { label: vscode.l10n.t('Secrets'), kind: vscode.QuickPickItemKind.Separator },
    secret(vscode.l10n.t('$(key) Set API Token…'), Commands.secretsSetToken),
    ...(profile.mode === 'rsa'
      ? [
          secret(vscode.l10n.t('$(lock) Set Private Key…'), Commands.secretsSetPrivateKey),
          secret(vscode.l10n.t('$(file) Import Private Key from File…'), Commands.secretsImportPrivateKey),
          secret(vscode.l10n.t('$(sync) Generate RSA Key Pair…'), Commands.keysGenerate),
          secret(vscode.l10n.t('$(shield) Set Platform Public Key…'), Commands.secretsSetPlatformPublicKey),
        ]
      : []),
    secret(vscode.l10n.t('$(comment-discussion) Set Model API Key…'), Commands.secretsSetModelApiKey),
    secret(vscode.l10n.t('$(trash) Clear Secrets…'), Commands.secretsClear),
  ];
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Edit "{0}"', profile.label) });
  const change = await picked?.run?.();
  if (!change) return undefined;
  const updated: Profile = { ...profile, ...change };
  await services.profiles.upsert(updated);
  return updated;
}

/** After creating a profile, point at the next step instead of leaving the user to find it. */
async function offerSecretsFor(profile: Profile): Promise<void> {
  const token = vscode.l10n.t('Set API Token');
  const generate = vscode.l10n.t('Generate Key Pair');
  const privateKey = vscode.l10n.t('Set Private Key');
  const actions = profile.mode === 'rsa' ? [generate, privateKey, token] : [token];
  const picked = await vscode.window.showInformationMessage(
    vscode.l10n.t('Profile "{0}" created and active. {1}', profile.label, profile.mode === 'rsa'
        ? vscode.l10n.t('Next: generate a key pair (upload its public key in the console), then store the token and platform public key it returns.')
        : vscode.l10n.t('Next: store the API token from the console.')),
    ...actions,
  );
  const command =
    picked === token ? Commands.secretsSetToken : picked === generate ? Commands.keysGenerate : picked === privateKey ? Commands.secretsSetPrivateKey : undefined;
  if (command) await vscode.commands.executeCommand(command, { profileId: profile.id });
}
