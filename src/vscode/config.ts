// The one reader of the `computeToolkit.*` settings (a lint rule keeps `getConfiguration` here).
// Getters read live values, so a changed setting applies on the next use without a reload; defaults
// and clamps live here; `onDidChange` tells feature areas when to re-read.
//
// Settings that decide where a secret goes (profiles, the active profile, the default base URLs) are
// read from the user's global settings only: a repository's `.vscode/settings.json` must never send
// the token, signatures or model key to another host. The manifest gives them application scope and
// this class ignores any workspace value as well (docs/security.md).

import * as vscode from 'vscode';
import {
  MAX_SELECTION_CHARS_CAP,
  MAX_SYSTEM_PROMPT_CHARS,
  MAX_TOKENS_MAX,
  MAX_TOKENS_MIN,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from '../shared/limits';
import { isEnvironmentName } from '../core/specs/types';
import { rankZeroGraceMs } from '../core/machines/rankZeroGrace';
import { clamp, finiteOr, globalValueOf, typedOr, type SecretRoutingSetting } from '../core/settingValues';

export const SECTION = 'computeToolkit';


/** The computeToolkit.chat.* settings, clamped to the limits both sides of the webview boundary share. */
export interface ChatSettings {
  defaultModel: string;
  systemPrompt: string;
  temperature: number;
  maxTokens: number;
  maxSelectionChars: number;
  firstTokenTimeoutMs: number;
  idleTimeoutMs: number;
  /** Most conversations kept; 0 keeps every one. */
  maxConversations: number;
  /** Explain / Find Bugs in Selection start a new conversation (default) instead of continuing the open one. */
  selectionActionsNewConversation: boolean;
}

export class Config implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.ConfigurationChangeEvent>();
  private readonly listener: vscode.Disposable;

  /** Fires when any `computeToolkit.*` setting changes; check `affects('request.timeoutSeconds')` etc. */
  readonly onDidChange = this.changeEmitter.event;

  constructor() {
    this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SECTION)) this.changeEmitter.fire(event);
    });
  }

  /** Whether a change event touched `computeToolkit.<key>`. */
  static affects(event: vscode.ConfigurationChangeEvent, key: string): boolean {
    return event.affectsConfiguration(`${SECTION}.${key}`);
  }

  affectsResourceFilter(event: vscode.ConfigurationChangeEvent): boolean {
    return Config.affects(event, 'resources.deviceType') || Config.affects(event, 'resources.taskType');
  }

  /** The raw `computeToolkit.profiles` array (ProfileStore validates each entry). Global settings only. */
  get profilesRaw(): unknown {
    return this.globalOnly('profiles');
  }
  get activeProfileId(): string {
    return typedOr(this.globalOnly('activeProfile'), '');
  }

  get defaultComputeBaseUrl(): string {
    return typedOr(this.globalOnly('defaults.computeBaseUrl'), 'https://openapi.suanli.cn');
  }
  get defaultModelApiBaseUrl(): string {
    return typedOr(this.globalOnly('defaults.modelApiBaseUrl'), 'https://api.suanli.cn/v1');
  }
  get defaultConsoleUrl(): string {
    return typedOr(this.globalOnly('defaults.consoleUrl'), 'https://console.suanli.cn');
  }

  get requestTimeoutMs(): number {
    return this.positive('request.timeoutSeconds', 30) * 1000;
  }
  get maxRetries(): number {
    return Math.max(0, Math.floor(this.get('request.maxRetries', 3)));
  }
  /** Requests kept per profile in the request history; 0 keeps none. */
  get requestHistorySize(): number {
    return Math.min(200, Math.max(0, Math.floor(this.get('request.historySize', 20))));
  }

  /** `device_type` values for the resource search, e.g. ['GpuDevice'] (the setting is comma-separated). */
  get resourcesDeviceTypes(): string[] {
    const types = this.get('resources.deviceType', 'GpuDevice')
      .split(',')
      .map((value) => value.trim())
      .filter((value) => value.length > 0);
    return types.length > 0 ? types : ['GpuDevice'];
  }
  get resourcesTaskType(): string {
    return this.get('resources.taskType', 'Deployment').trim() || 'Deployment';
  }

  /** Days after which a key or token should be rotated; 0 turns the reminder off. */
  get keyRotationReminderDays(): number {
    return Math.max(0, Math.floor(this.get('keys.rotationReminderDays', 90)));
  }

  /** The chat settings as they are now (read fresh: they can change while VS Code runs). */
  get chat(): ChatSettings {
    const number = (key: string, fallback: number): number => finiteOr(this.raw(`chat.${key}`), fallback);
    return {
      defaultModel: this.get('chat.defaultModel', '').trim(),
      systemPrompt: this.get('chat.systemPrompt', '').slice(0, MAX_SYSTEM_PROMPT_CHARS),
      temperature: clamp(number('temperature', 0.7), TEMPERATURE_MIN, TEMPERATURE_MAX),
      maxTokens: Math.round(clamp(number('maxTokens', 2048), MAX_TOKENS_MIN, MAX_TOKENS_MAX)),
      maxSelectionChars: Math.round(clamp(number('maxSelectionChars', 20_000), 100, MAX_SELECTION_CHARS_CAP)),
      firstTokenTimeoutMs: clamp(number('requestTimeoutSeconds', 60), 1, 3600) * 1000,
      idleTimeoutMs: clamp(number('idleTimeoutSeconds', 60), 1, 3600) * 1000,
      maxConversations: Math.round(clamp(number('maxConversations', 0), 0, 1_000_000)),
      selectionActionsNewConversation: this.raw('chat.selectionActionsNewConversation') !== false,
    };
  }

  /** Writes a setting to the user's global settings (profiles are never written to a workspace). */
  async writeGlobal(key: SecretRoutingSetting, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
  }

  // ---- money and time: notifications, budgets, spend ----

  /** Whether notifications of one kind are on (`computeToolkit.notifications.<kind>`, default on). */
  notificationEnabled(kind: 'taskStarted' | 'taskEnded' | 'nodeProblems' | 'stuckPending'): boolean {
    return this.get(`notifications.${kind}`, true);
  }
  get stuckPendingMs(): number {
    return Math.max(1, this.positive('notifications.stuckPendingMinutes', 10)) * 60_000;
  }
  /** How long before a rented machine's rental ends to warn (`computeToolkit.machines.warnBeforeEndMinutes`; 0 = never). */
  get machineEndWarningMs(): number {
    const minutes = this.raw('machines.warnBeforeEndMinutes');
    if (minutes === 0) return 0;
    return Math.min(10_080, Math.max(1, this.positive('machines.warnBeforeEndMinutes', 30))) * 60_000;
  }
  /** How long a group run's other machines may go on after rank 0 failed (`computeToolkit.machines.rankZeroGraceSeconds`, 0–3600). */
  get machineRankZeroGraceMs(): number {
    return rankZeroGraceMs(this.raw('machines.rankZeroGraceSeconds'));
  }
  /** Idle pause of Jupyter kernel tasks (`computeToolkit.notebooks.idlePauseMinutes`; 0 = off, the default). */
  get notebookIdlePauseMs(): number {
    const minutes = this.raw('notebooks.idlePauseMinutes');
    if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0) return 0;
    return Math.min(1440, Math.max(5, minutes)) * 60_000;
  }
  /** How often the remote-state store polls a profile while something moves; the platform's floor is 10 s. */
  get watchIntervalMs(): number {
    return Math.max(10, this.positive('notifications.pollIntervalSeconds', 15)) * 1000;
  }
  /**
   * Which profiles are watched in the background (`computeToolkit.watch.profiles`: profile label or
   * id → true/false). A profile not named is watched (one look, then polling only while something
   * moves); false turns it off. The active profile is always watched. Global value only: a
   * repository's settings must not decide which accounts are polled.
   */
  get watchProfiles(): Record<string, boolean> {
    const value = globalValueOf(vscode.workspace.getConfiguration(SECTION).inspect<unknown>('watch.profiles'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const result: Record<string, boolean> = {};
    for (const [key, flag] of Object.entries(value as Record<string, unknown>)) if (typeof flag === 'boolean') result[key] = flag;
    return result;
  }
  /**
   * The raw per-profile budget entries (validated by spend/budgetSettings.ts). The user's global
   * value only: a repository's settings must not be able to pause someone's tasks.
   */
  get budgetsPerProfile(): Record<string, unknown> {
    const value = globalValueOf(vscode.workspace.getConfiguration(SECTION).inspect<unknown>('budgets.perProfile'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
  get budgetThresholds(): unknown[] {
    const value = globalValueOf(vscode.workspace.getConfiguration(SECTION).inspect<unknown>('budgets.thresholds'));
    return Array.isArray(value) ? (value as unknown[]) : [80, 100];
  }
  /** Writes the per-profile budgets (Set Budget…): the user's global settings, where they are read from. */
  async writeBudgets(perProfile: Record<string, unknown>): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update('budgets.perProfile', perProfile, vscode.ConfigurationTarget.Global);
  }
  async writeBudgetThresholds(thresholds: readonly number[]): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update('budgets.thresholds', [...thresholds], vscode.ConfigurationTarget.Global);
  }
  /**
   * The environment variables spec files may read with {"env": NAME}. The user's global value only: a
   * spec file comes with the workspace, and so do its settings (docs/security.md).
   */
  get allowedEnvironmentVariables(): ReadonlySet<string> {
    const value = this.globalOnly('specs.allowedEnvironmentVariables');
    return new Set(Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string' && isEnvironmentName(name)) : []);
  }
  /** Adds names to the allowed environment variables, in the user's global settings where they are read from. */
  async allowEnvironmentVariables(names: readonly string[]): Promise<void> {
    const next = [...new Set([...this.allowedEnvironmentVariables, ...names])];
    await vscode.workspace.getConfiguration(SECTION).update('specs.allowedEnvironmentVariables', next, vscode.ConfigurationTarget.Global);
  }
  /**
   * Remote-SSH's `remote.SSH.configFile` (the ssh config it reads; docs/machines.md): our Include line goes
   * there when it is set. The user's global value only: a repository's settings must not choose a file
   * the extension writes to.
   */
  get remoteSshConfigFile(): unknown {
    return vscode.workspace.getConfiguration('remote.SSH').inspect<unknown>('configFile')?.globalValue;
  }
  get spendStatusBar(): boolean {
    return this.get('spend.statusBar', true);
  }

  dispose(): void {
    this.listener.dispose();
    this.changeEmitter.dispose();
  }

  private raw(key: string): unknown {
    return vscode.workspace.getConfiguration(SECTION).get<unknown>(key);
  }

  /** A hand-edited settings.json can hold any type: fall back rather than propagate a wrong one. */
  private get<T>(key: string, fallback: T): T {
    return typedOr(this.raw(key), fallback);
  }

  private globalOnly(key: SecretRoutingSetting): unknown {
    return globalValueOf(vscode.workspace.getConfiguration(SECTION).inspect<unknown>(key));
  }

  private positive(key: string, fallback: number): number {
    const value = this.get(key, fallback);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  }
}
