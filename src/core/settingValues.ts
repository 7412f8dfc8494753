// Pure helpers behind Config (no editor API, so plain-Node unit tests cover them): type checks with
// fallbacks, clamps, and the rule that settings routing secrets take only the user's global value.

/**
 * Settings that pick a host or a key, or let a secret out (keys under `computeToolkit.`): global (user)
 * values only. The allowed environment variables decide which of this machine's values a spec file may send.
 */
export const SECRET_ROUTING_SETTINGS = ['profiles', 'activeProfile', 'defaults.computeBaseUrl', 'defaults.modelApiBaseUrl', 'defaults.consoleUrl', 'specs.allowedEnvironmentVariables'] as const;
export type SecretRoutingSetting = (typeof SECRET_ROUTING_SETTINGS)[number];

/** `value` when it has the fallback's type (and is not NaN), else the fallback. */
export function typedOr<T>(value: unknown, fallback: T): T {
  if (typeof value !== typeof fallback) return fallback;
  if (typeof value === 'number' && Number.isNaN(value)) return fallback;
  return value as T;
}

export function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The parts of `WorkspaceConfiguration.inspect()` this rule reads. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The user's global value, else the default: workspace and folder values are ignored, whatever the
 * setting's declared scope (a repository's settings must not redirect where secrets are sent).
 */
export function globalValueOf(inspected: InspectedSetting | undefined): unknown {
  if (!inspected) return undefined;
  return inspected.globalValue !== undefined ? inspected.globalValue : inspected.defaultValue;
}
