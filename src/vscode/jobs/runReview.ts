// What Run on GPU / Run Again will run and send, in words, for its confirmation: every value
// .compute/run.json decides (it is workspace content: docs/security.md) — the folder synced and where
// to, the volume and its mount, the command, the image, each env variable — and the profile. Values
// are shown through shownValue, so nothing hides in them.

import * as vscode from 'vscode';
import { RUN_CONFIG_PATH, type RunConfig } from '../../core/jobs/runConfig';
import { shownValue } from '../../core/shownValue';
import type { Profile } from '../services';

export function runFactLines(config: RunConfig, profile: Pick<Profile, 'label' | 'environment'>, target: { root: vscode.Uri; folder: vscode.Uri }): string[] {
  const folder = vscode.workspace.asRelativePath(target.folder, true);
  const workdir = `${config.volume.targetDir}${config.volume.remoteDir === '/' ? '' : config.volume.remoteDir}`;
  return [
    profile.environment === 'prod' ? vscode.l10n.t('Profile: {0} (PRODUCTION)', profile.label) : vscode.l10n.t('Profile: {0}', profile.label),
    vscode.l10n.t('Settings from {0}', vscode.workspace.asRelativePath(vscode.Uri.joinPath(target.root, RUN_CONFIG_PATH), true)),
    vscode.l10n.t('Folder synced: {0} → volume {1} folder {2}', shownValue(folder, 200), config.volume.storageId, shownValue(config.volume.remoteDir, 200)),
    vscode.l10n.t('Volume {0} mounted at {1}; the command runs in {2}', config.volume.storageId, shownValue(config.volume.targetDir, 200), shownValue(workdir, 300)),
    vscode.l10n.t('Command: {0}', shownValue(config.command, 600)),
    vscode.l10n.t('Image: {0}', shownValue(config.image, 300)),
    ...config.env.map((entry) => vscode.l10n.t('Env {0} = {1} (written in {2})', entry.name, JSON.stringify(shownValue(entry.value, 160)), RUN_CONFIG_PATH)),
  ];
}
