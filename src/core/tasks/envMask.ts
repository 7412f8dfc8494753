// Env values of a task can be secrets (HF_TOKEN=hf_…): wherever a task is displayed, each value is
// masked and only the variable names stay readable; "Reveal Env Values" shows them on request.
// No editor API here, so plain-Node tests cover it.

export const MASKED_VALUE = '••••••';

/** `KEY=VALUE` lines (or `;`-separated pairs) with every value masked; text without `=` is masked whole. */
export function maskEnvText(env: string): string {
  return env
    .split(/(\r?\n|;)/)
    .map((part) => {
      if (part === ';' || part === '\n' || part === '\r\n' || part.trim() === '') return part;
      const equals = part.indexOf('=');
      return equals < 0 ? MASKED_VALUE : `${part.slice(0, equals + 1)}${MASKED_VALUE}`;
    })
    .join('');
}

/**
 * A copy of a task (or any JSON the platform returned) with every `env` field's values masked: a
 * dotenv-style string, an object of name → value, or a list of `{name, value}`. Linear in the input.
 */
export function maskTaskEnv<T>(value: T): T {
  return walk(value, false) as T;
}

function walk(value: unknown, inEnv: boolean): unknown {
  if (typeof value === 'string') return inEnv ? maskEnvText(value) : value;
  if (Array.isArray(value)) return value.map((item) => walk(item, inEnv));
  if (typeof value !== 'object' || value === null) return inEnv && value !== null && value !== undefined ? MASKED_VALUE : value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (inEnv) {
      // Inside env: keep names (`name`, `key`, object keys), mask everything else.
      out[key] = key === 'name' || key === 'key' ? child : typeof child === 'object' && child !== null ? walk(child, true) : child === null ? null : MASKED_VALUE;
    } else {
      out[key] = walk(child, key === 'env' || key === 'envs' || key === 'environment');
    }
  }
  return out;
}
