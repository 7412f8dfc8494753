// The MCP server's configuration, read from the environment only (no files of its own, no flags), so
// a client config snippet or VS Code's definition provider passes secrets without writing them down.
// Every problem is collected and reported at once, naming the variable and never its value.

import { readFileSync } from 'node:fs';
import type { AuthMode, ComputeCredentials } from '../core/compute/api';
import { parsePlatformPublicKey, parsePrivateKey } from '../core/compute/keys';
import { assertSecureUrl } from '../core/http/url';

export const ENV = {
  baseUrl: 'COMPUTE_TOOLKIT_BASE_URL',
  mode: 'COMPUTE_TOOLKIT_MODE',
  token: 'COMPUTE_TOOLKIT_TOKEN',
  privateKey: 'COMPUTE_TOOLKIT_PRIVATE_KEY',
  privateKeyFile: 'COMPUTE_TOOLKIT_PRIVATE_KEY_FILE',
  platformPublicKey: 'COMPUTE_TOOLKIT_PLATFORM_PUBLIC_KEY',
  platformPublicKeyFile: 'COMPUTE_TOOLKIT_PLATFORM_PUBLIC_KEY_FILE',
  modelBaseUrl: 'COMPUTE_TOOLKIT_MODEL_BASE_URL',
  modelApiKey: 'COMPUTE_TOOLKIT_MODEL_API_KEY',
  allowWrites: 'COMPUTE_TOOLKIT_ALLOW_WRITES',
} as const;

export const DEFAULT_BASE_URL = 'https://openapi.suanli.cn';
export const DEFAULT_MODEL_BASE_URL = 'https://api.suanli.cn/v1';

export interface McpConfig {
  baseUrl: string;
  credentials: ComputeCredentials;
  modelBaseUrl: string;
  modelApiKey: string | undefined;
  allowWrites: boolean;
  /** Every secret value, to mask wherever a server might echo one. */
  secrets: string[];
}

export class McpConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Compute Toolkit MCP server: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw;
}

/** A key given inline or as a file (inline wins only when the file is not set too: both is an error). */
function keyText(env: Env, inlineName: string, fileName: string, problems: string[]): string | undefined {
  const inline = value(env, inlineName);
  const file = value(env, fileName);
  if (inline !== undefined && file !== undefined) {
    problems.push(`set ${inlineName} or ${fileName}, not both`);
    return undefined;
  }
  if (file === undefined) return inline;
  try {
    return readFileSync(file.trim(), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    problems.push(`${fileName} names a file that cannot be read (${code})`);
    return undefined;
  }
}

function url(env: Env, name: string, fallback: string, problems: string[]): string {
  const text = value(env, name) ?? fallback;
  try {
    return assertSecureUrl(text).toString().replace(/\/+$/, '');
  } catch (error) {
    // The URL is not a secret; the parser's message names what is wrong with it.
    problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return fallback;
  }
}

/** Reads and checks the environment; throws McpConfigError listing every problem. */
export function readConfig(env: Env): McpConfig {
  const problems: string[] = [];
  const baseUrl = url(env, ENV.baseUrl, DEFAULT_BASE_URL, problems);
  const modelBaseUrl = url(env, ENV.modelBaseUrl, DEFAULT_MODEL_BASE_URL, problems);
  const modeText = (value(env, ENV.mode) ?? 'token').trim().toLowerCase();
  let mode: AuthMode = 'token';
  if (modeText === 'token' || modeText === 'rsa') mode = modeText;
  else problems.push(`${ENV.mode} must be "token" or "rsa" (got "${modeText.slice(0, 20)}")`);

  const token = value(env, ENV.token)?.trim();
  if (token === undefined) problems.push(`${ENV.token} is required (the API token from the platform console)`);
  else if (/\s/.test(token)) problems.push(`${ENV.token} contains whitespace; paste the token alone`);

  const secrets: string[] = token ? [token] : [];
  let privateKey: string | undefined;
  let platformPublicKey: string | undefined;
  if (mode === 'rsa') {
    privateKey = keyText(env, ENV.privateKey, ENV.privateKeyFile, problems);
    if (privateKey === undefined) {
      if (!problems.some((p) => p.includes(ENV.privateKey))) problems.push(`${ENV.mode}=rsa needs ${ENV.privateKey} or ${ENV.privateKeyFile}`);
    } else {
      secrets.push(privateKey);
      try {
        parsePrivateKey(privateKey);
      } catch (error) {
        // The parser's messages describe the encoding problem, never the key itself.
        problems.push(`${ENV.privateKey}: ${error instanceof Error ? error.message : 'not a usable private key'}`);
      }
    }
    platformPublicKey = keyText(env, ENV.platformPublicKey, ENV.platformPublicKeyFile, problems);
    if (platformPublicKey !== undefined) {
      try {
        parsePlatformPublicKey(platformPublicKey);
      } catch (error) {
        problems.push(`${ENV.platformPublicKey}: ${error instanceof Error ? error.message : 'not a usable public key'}`);
      }
    }
  }
  const modelApiKey = value(env, ENV.modelApiKey)?.trim();
  if (modelApiKey) secrets.push(modelApiKey);

  const allowText = value(env, ENV.allowWrites)?.trim();
  if (allowText !== undefined && allowText !== '0' && allowText !== '1') {
    problems.push(`${ENV.allowWrites} must be 1 (list write and destructive tools) or 0 (default)`);
  }
  if (problems.length > 0) throw new McpConfigError(problems);
  const credentials: ComputeCredentials =
    mode === 'rsa'
      ? { mode, token: token as string, privateKey: privateKey as string, ...(platformPublicKey ? { platformPublicKey } : {}) }
      : { mode, token: token as string };
  return { baseUrl, credentials, modelBaseUrl, modelApiKey, allowWrites: allowText === '1', secrets };
}
