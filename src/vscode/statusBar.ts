// The status bar item: active profile and key mode, production in the warning colour; a click switches.

import { Views } from './commandIds';
import * as vscode from 'vscode';
import { Commands } from './commandIds';
import { statusBarLabel } from './profiles/profileRecord';
import type { Profile, ProfileService } from './services';
import { markdownText } from './markdownText';
import { environmentName, modeName as shownMode } from './ui/format';

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(Views.profileStatusBar, vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: vscode.Disposable;

  constructor(profiles: ProfileService) {
    this.item.name = vscode.l10n.t('Compute Toolkit Profile');
    this.item.command = Commands.profileSwitch;
    this.subscription = profiles.onDidChangeActive((profile) => this.update(profile));
    this.update(profiles.active);
    this.item.show();
  }

  /** What the item shows now (read by the in-host tests). */
  get text(): string {
    return this.item.text;
  }

  /** What a screen reader announces for the item (read by the in-host tests). */
  get accessibleName(): string {
    return this.item.accessibilityInformation?.label ?? '';
  }

  private update(profile: Profile | undefined): void {
    if (!profile) {
      this.item.text = `$(server-environment) ${vscode.l10n.t('No compute profile')}`;
      this.item.tooltip = vscode.l10n.t('Compute Toolkit: no profile yet. Click to create one or connect to the local sandbox.');
      this.item.accessibilityInformation = { label: this.item.tooltip, role: 'button' };
      this.item.backgroundColor = undefined;
      return;
    }
    const modeName = shownMode(profile.mode);
    this.item.text = `$(server-environment) ${statusBarLabel(profile.label, profile.mode, modeName)}`;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${markdownText(vscode.l10n.t('Compute profile:'))}** ${markdownText(profile.label)} (${environmentName(profile.environment)})\n\n`);
    tooltip.appendMarkdown(`**${markdownText(vscode.l10n.t('Mode:'))}** ${markdownText(modeName)}\n\n`);
    tooltip.appendMarkdown(`**${markdownText(vscode.l10n.t('Compute API:'))}** ${markdownText(profile.computeBaseUrl)}\n\n`);
    tooltip.appendMarkdown(`**${markdownText(vscode.l10n.t('Model API:'))}** ${markdownText(profile.modelApiBaseUrl)}\n\n`);
    tooltip.appendMarkdown(markdownText(vscode.l10n.t('Click to switch profile.')));
    // Without this, screen readers announce the tooltip's Markdown source (escapes and asterisks).
    this.item.accessibilityInformation = {
      label: vscode.l10n.t('Compute profile {0} ({1}), {2}. Click to switch profile.', profile.label, environmentName(profile.environment), modeName),
      role: 'button',
    };
    this.item.tooltip = tooltip;
    // Production requests cost money and can stop real tasks: make it visible at a glance.
    this.item.backgroundColor = profile.environment === 'prod' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
