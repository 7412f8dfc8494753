// The one typed view of the `computeToolkit.*` settings. Getters read live values, so a changed setting
// applies on the next use without a reload; `onDidChange` tells feature areas when to re-read.
// Profiles are settings too, but they are owned by ProfileStore (profiles/profileStore.ts).

import * as vscode from 'vscode';

export const SECTION = 'computeToolkit';

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

  get defaultComputeBaseUrl(): string {
    return this.get('defaults.computeBaseUrl', 'https://openapi.suanli.cn');
  }
  get defaultModelApiBaseUrl(): string {
    return this.get('defaults.modelApiBaseUrl', 'https://api.suanli.cn/v1');
  }
  get defaultConsoleUrl(): string {
    return this.get('defaults.consoleUrl', 'https://console.suanli.cn');
  }

  get requestTimeoutMs(): number {
    return this.positive('request.timeoutSeconds', 30) * 1000;
  }
  get maxRetries(): number {
    return Math.max(0, Math.floor(this.get('request.maxRetries', 3)));
  }

  get resourcesTaskType(): string {
    return this.get('resources.taskType', 'Deployment');
  }
  get resourcesDeviceType(): string {
    return this.get('resources.deviceType', 'GpuDevice');
  }

  get tasksAutoRefresh(): boolean {
    return this.get('tasks.autoRefresh', true);
  }
  get tasksRefreshIntervalMs(): number {
    // The platform advises polling no faster than every 10 s; the manifest allows 5 s as a floor.
    return Math.max(5, this.get('tasks.refreshIntervalSeconds', 10)) * 1000;
  }

  /** Days after which a key or token should be rotated; 0 turns the reminder off. */
  get keyRotationReminderDays(): number {
    return Math.max(0, Math.floor(this.get('keys.rotationReminderDays', 90)));
  }

  get chatDefaultModel(): string {
    return this.get('chat.defaultModel', '');
  }
  get chatSystemPrompt(): string {
    return this.get('chat.systemPrompt', '');
  }
  get chatTemperature(): number {
    return this.get('chat.temperature', 0.7);
  }
  get chatMaxTokens(): number {
    return this.positive('chat.maxTokens', 2048);
  }
  get chatMaxSelectionChars(): number {
    return this.positive('chat.maxSelectionChars', 20000);
  }
  get chatRequestTimeoutMs(): number {
    return this.positive('chat.requestTimeoutSeconds', 60) * 1000;
  }
  get chatIdleTimeoutMs(): number {
    return this.positive('chat.idleTimeoutSeconds', 60) * 1000;
  }

  // ---- money and time: notifications, budgets, spend ----

  /** Whether notifications of one kind are on (`computeToolkit.notifications.<kind>`, default on). */
  notificationEnabled(kind: 'taskStarted' | 'taskEnded' | 'nodeProblems' | 'stuckPending'): boolean {
    return this.get(`notifications.${kind}`, true);
  }
  get stuckPendingMs(): number {
    return Math.max(1, this.positive('notifications.stuckPendingMinutes', 10)) * 60_000;
  }
  /** How often the watcher lists tasks; the platform's floor is 10 s. */
  get watchIntervalMs(): number {
    return Math.max(10, this.positive('notifications.pollIntervalSeconds', 15)) * 1000;
  }
  /** The raw per-profile budget entries (validated by money/budgetSettings.ts). */
  get budgetsPerProfile(): Record<string, unknown> {
    const value = this.get<unknown>('budgets.perProfile', {});
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
  get budgetThresholds(): unknown[] {
    const value = vscode.workspace.getConfiguration(SECTION).get<unknown>('budgets.thresholds');
    return Array.isArray(value) ? (value as unknown[]) : [80, 100];
  }
  get spendStatusBar(): boolean {
    return this.get('spend.statusBar', true);
  }

  dispose(): void {
    this.listener.dispose();
    this.changeEmitter.dispose();
  }

  private get<T>(key: string, fallback: T): T {
    const value = vscode.workspace.getConfiguration(SECTION).get<unknown>(key);
    // A hand-edited settings.json can hold any type: fall back rather than propagate a wrong one.
    return typeof value === typeof fallback ? (value as T) : fallback;
  }

  private positive(key: string, fallback: number): number {
    const value = this.get(key, fallback);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  }
}
