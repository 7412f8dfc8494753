// What a spec file will run and send, in words, for its confirmation and its plan: the profile, and per
// service the image, the command, every env variable with where its value comes from (written in the
// file, a stored spec secret, this machine's environment) and the mounts. Values come from the
// workspace: shown through shownValue, so nothing hides in them (docs/security.md).

import * as vscode from 'vscode';
import type { EnvEntry } from '../../core/specs/envSources';
import { shownValue } from '../../core/shownValue';
import { specsCore } from '../../core/specs/load';
import type { ServiceFacts } from '../../core/specs/whatRuns';
import type { Spec } from '../../core/specs/types';
import type { Profile } from '../services';

const value = (text: string, max = 160) => shownValue(text, max);

export function profileLine(profile: Pick<Profile, 'label' | 'environment'>): string {
  return profile.environment === 'prod' ? vscode.l10n.t('Profile: {0} (PRODUCTION)', profile.label) : vscode.l10n.t('Profile: {0}', profile.label);
}

export function envLine(entry: Pick<EnvEntry, 'name' | 'source'>): string {
  const { source } = entry;
  if (entry.name === undefined) {
    return source.kind === 'secret'
      ? vscode.l10n.t('Registry password ← stored spec secret "{0}"', value(source.name))
      : source.kind === 'environment'
        ? vscode.l10n.t("Registry password ← this machine's environment variable {0}", value(source.name))
        : vscode.l10n.t('Registry password written in the file');
  }
  const name = value(entry.name, 80);
  if (source.kind === 'secret') return vscode.l10n.t('Env {0} ← stored spec secret "{1}"', name, value(source.name));
  if (source.kind === 'environment') return vscode.l10n.t("Env {0} ← this machine's environment variable {1}", name, value(source.name));
  return vscode.l10n.t('Env {0} = {1} (written in the file)', name, JSON.stringify(value(source.value)));
}

function serviceLines(service: ServiceFacts): string[] {
  const lines = [vscode.l10n.t('Service "{0}": image {1}', value(service.name, 80), value(service.image))];
  lines.push(service.command === undefined ? vscode.l10n.t("  Command: the image's own entry point") : vscode.l10n.t('  Command: {0}', value(service.command, 600)));
  lines.push(...service.env.map((entry) => `  ${envLine(entry)}`));
  for (const mount of service.mounts) {
    const dir = value(mount.targetDir, 120);
    lines.push(
      mount.kind === 'nas'
        ? vscode.l10n.t('  NAS volume {0} mounted at {1}', mount.id, dir)
        : mount.kind === 'storage'
          ? vscode.l10n.t('  Storage {0} mounted at {1}', mount.id, dir)
          : vscode.l10n.t('  Shared storage {0} mounted at {1}', mount.id, dir),
    );
  }
  return lines;
}

/** The profile, the file, and each service's image, command, env sources and mounts. */
export function specFactLines(spec: Spec, profile: Pick<Profile, 'label' | 'environment'>, file: vscode.Uri): string[] {
  return [profileLine(profile), vscode.l10n.t('From the file {0}', vscode.workspace.asRelativePath(file)), ...specsCore().specFacts(spec).flatMap(serviceLines)];
}
