// The MCP server's configuration, read from the environment only (no files of its own, no flags), so
// a client config snippet or VS Code's definition provider passes secrets without writing them down.
// Every problem is collected and reported at once, on one line, naming the variable and never its value.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { AuthMode, ComputeCredentials } from '../core/compute/api';
import { parsePlatformPublicKey, parsePrivateKey } from '../core/compute/keys';
import { assertSecureUrl } from '../core/http/url';
import { trimEnd } from '../core/textTrim';
import { headerSecretProblem } from '../core/secretValues';
import { MAX_KEY_INPUT_CHARS } from '../core/compute/keyInput';

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
  writesUnconfirmed: 'COMPUTE_TOOLKIT_WRITES_UNCONFIRMED',
} as const;

export const DEFAULT_BASE_URL = 'https://openapi.suanli.cn';
export const DEFAULT_MODEL_BASE_URL = 'https://api.suanli.cn/v1';

export interface McpConfig {
  baseUrl: string;
  credentials: ComputeCredentials;
  modelBaseUrl: string;
  modelApiKey: string | undefined;
  allowWrites: boolean;
  /** The user's explicit opt-out of the per-call confirmation of writes (src/mcp/writeConfirmation.ts). */
  writesUnconfirmed: boolean;
  /** Every secret value, to mask wherever a server might echo one. */
  secrets: string[];
}

export class McpConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Compute Toolkit MCP server: invalid configuration: ${problems.map(oneLine).join('; ')}`);
  }
}

/** A problem as a single line (parser messages are one sentence, but never trust that on stderr). */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
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
    return readKeyFile(file.trim(), fileName, problems);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    problems.push(`${fileName} names a file that cannot be read (${code})`);
    return undefined;
  }
}

/** Reads at most MAX_KEY_INPUT_CHARS bytes of a key file: a larger file is not a key (and is not read whole). */
function readKeyFile(file: string, fileName: string, problems: string[]): string | undefined {
  const descriptor = openSync(file, 'r');
  try {
    if (!fstatSync(descriptor).isFile()) {
      problems.push(`${fileName} names something that is not a file`);
      return undefined;
    }
    const buffer = Buffer.alloc(MAX_KEY_INPUT_CHARS + 1);
    const length = readSync(descriptor, buffer, 0, buffer.length, 0);
    if (length > MAX_KEY_INPUT_CHARS) {
      problems.push(`${fileName} names a file larger than ${MAX_KEY_INPUT_CHARS} bytes, which is not a key`);
      return undefined;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}

/**
 * A base URL the clients accept (secure, no credentials, no query or fragment), or a problem naming the
 * variable. The value is not repeated: a URL can carry a token in its query or user part.
 */
function url(env: Env, name: string, fallback: string, problems: string[]): string {
  const text = value(env, name) ?? fallback;
  let parsed: URL | undefined;
  try {
    parsed = new URL(text.trim());
  } catch {
    problems.push(`${name} is not a valid URL (use a full address such as ${fallback})`);
    return fallback;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    problems.push(`${name} must be an https:// address`);
  } else if (parsed.username || parsed.password) {
    problems.push(`${name} must not contain a user name or password (secrets go in their own variables)`);
  } else if (parsed.search || parsed.hash) {
    problems.push(`${name} must not contain a query (?…) or fragment (#…)`);
  } else {
    try {
      return trimEnd(assertSecureUrl(text).toString(), '/');
    } catch {
      problems.push(`${name} uses plain http to a host other than this machine: use https:// (or a loopback address for a local sandbox)`);
    }
  }
  return fallback;
}

/** Reads and checks the environment; throws McpConfigError listing every problem. */
export function readConfig(env: Env): McpConfig {
  const problems: string[] = [];
  const baseUrl = url(env, ENV.baseUrl, DEFAULT_BASE_URL, problems);
  const modelBaseUrl = url(env, ENV.modelBaseUrl, DEFAULT_MODEL_BASE_URL, problems);
  const modeText = (value(env, ENV.mode) ?? 'token').trim().toLowerCase();
  let mode: AuthMode = 'token';
  if (modeText === 'token' || modeText === 'rsa') mode = modeText;
  else problems.push(`${ENV.mode} must be "token" or "rsa"`);

  const token = value(env, ENV.token)?.trim();
  if (token === undefined) problems.push(`${ENV.token} is required (the API token from the platform console)`);
  else {
    const problem = headerSecretProblem(token, 'API token');
    if (problem) problems.push(`${ENV.token}: ${problem}`);
  }

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
  if (modelApiKey) {
    secrets.push(modelApiKey);
    const problem = headerSecretProblem(modelApiKey, 'model API key');
    if (problem) problems.push(`${ENV.modelApiKey}: ${problem}`);
  }

  const allowText = value(env, ENV.allowWrites)?.trim();
  if (allowText !== undefined && allowText !== '0' && allowText !== '1') {
    problems.push(`${ENV.allowWrites} must be 1 (list write and destructive tools) or 0 (default)`);
  }
  const unconfirmedText = value(env, ENV.writesUnconfirmed)?.trim();
  if (unconfirmedText !== undefined && unconfirmedText !== '0' && unconfirmedText !== '1') {
    problems.push(`${ENV.writesUnconfirmed} must be 1 (send changes without asking the user each time) or 0 (default)`);
  } else if (unconfirmedText === '1' && allowText !== '1') {
    problems.push(`${ENV.writesUnconfirmed}=1 needs ${ENV.allowWrites}=1`);
  }
  if (problems.length > 0) throw new McpConfigError(problems);
  const credentials: ComputeCredentials =
    mode === 'rsa'
      ? { mode, token: token as string, privateKey: privateKey as string, ...(platformPublicKey ? { platformPublicKey } : {}) }
      : { mode, token: token as string };
  return { baseUrl, credentials, modelBaseUrl, modelApiKey, allowWrites: allowText === '1', writesUnconfirmed: unconfirmedText === '1', secrets };
}
