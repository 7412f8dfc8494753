// Builds one attempt of a request: credentials checked, body encrypted, fresh timestamp, signature.
// Called again for every retry, so no timestamp or signature is ever sent twice.

import type { KeyObject } from 'node:crypto';
import { ConfigError, coreText, type CoreArg } from '../errors';
import type { AuthMode, ComputeCredentials } from './api';
import type { RequestClock } from './clock';
import { encryptBodyAsync } from './encryption';
import type { LastParsedKeys, ParsedPrivateKey } from './keys';
import { operationSpec, type RequestPlan } from './operations';
import { signAsync, stringToSign } from './signing';
import { checkedHeaderSecret } from '../secretValues';

export interface BuiltRequest {
  plan: RequestPlan;
  url: string;
  /** Path + ?query as sent; the first field of the string to sign. */
  signedPath: string;
  headers: Record<string, string>;
  /** Body text exactly as sent ("" when none): the compact JSON, or the Base64 ciphertext. */
  body: string;
  mode: AuthMode;
  token: string;
  version: string;
  timestamp: string;
  stringToSign?: string;
  signature?: string;
  ownPublicKey?: KeyObject;
  /** Fingerprint of the client key (RSA mode), for messages. */
  keyFingerprint?: string;
}

export interface BuildContext {
  /** Normalized: no trailing slash (plan paths start with one). */
  baseUrl: string;
  version: string;
  clock: RequestClock;
  /** Parsed keys of this client, so a request does not re-read the key text. */
  keys: LastParsedKeys;
  /** Called once per key that is shorter than recommended. */
  onKeyWarning: (warning: string, fingerprint: string) => void;
}

function planTitle(plan: RequestPlan): CoreArg {
  return plan.operation === 'raw' ? coreText('request.thisRequest') : operationSpec(plan.operation).title;
}

export async function buildRequest(
  plan: RequestPlan,
  credentials: ComputeCredentials,
  context: BuildContext,
  signal?: AbortSignal,
): Promise<BuiltRequest> {
  const rawToken = (credentials.token ?? '').trim();
  if (rawToken === '') {
    throw new ConfigError(coreText('request.noToken'), coreText('request.noToken.hint'));
  }
  // A line break or a non-ASCII character would fail inside the HTTP stack as a network error.
  const token = checkedHeaderSecret(rawToken, 'apiToken');
  const mode = credentials.mode;
  if (mode !== 'token' && mode !== 'rsa') {
    throw new ConfigError(coreText('request.unknownMode', String(mode)), coreText('request.unknownMode.hint'));
  }
  if (plan.encrypt && mode === 'token') {
    throw new ConfigError(coreText('request.encryptNeedsRsa', planTitle(plan)), coreText('request.encryptNeedsRsa.hint'));
  }

  let privateKey: ParsedPrivateKey | undefined;
  if (mode === 'rsa') {
    if (!credentials.privateKey?.trim()) {
      throw new ConfigError(coreText('request.noPrivateKey'), coreText('request.noPrivateKey.hint'));
    }
    privateKey = context.keys.privateKey(credentials.privateKey);
    if (privateKey.warning) context.onKeyWarning(privateKey.warning, privateKey.fingerprint);
  }

  let body = plan.jsonBody ?? '';
  if (plan.encrypt) {
    if (!credentials.platformPublicKey?.trim()) {
      throw new ConfigError(coreText('request.noPlatformKey', planTitle(plan)), coreText('key.pastePlatformKey.hint'));
    }
    const platformKey = context.keys.platformPublicKey(credentials.platformPublicKey);
    if (platformKey.warning) context.onKeyWarning(platformKey.warning, platformKey.fingerprint);
    if (privateKey && platformKey.fingerprint === privateKey.fingerprint) {
      throw new ConfigError(coreText('request.ownKeyInPlatformSlot'), coreText('request.ownKeyInPlatformSlot.hint'));
    }
    body = await encryptBodyAsync(body, platformKey.publicKey, signal);
  }

  // Sign the path exactly as undici will send it: it parses the URL with WHATWG rules, so taking the
  // path from the same parse makes "signed == sent" hold for any base path or hand-written path.
  // The URL shown (Sign Request's curl recipe) and sent is the parsed one too: the exact bytes signed,
  // percent-encoded as the parser did it (a recipe built from the unparsed path would send other bytes).
  const parsedUrl = new URL(`${context.baseUrl}${plan.pathWithQuery}`);
  const signedPath = `${parsedUrl.pathname}${parsedUrl.search}`;
  const url = `${parsedUrl.origin}${signedPath}`;
  const timestamp = context.clock.next(token);
  const headers: Record<string, string> = { token, version: context.version, timestamp, accept: 'application/json' };
  const built: BuiltRequest = {
    plan,
    url,
    signedPath,
    headers,
    body,
    mode,
    token,
    version: context.version,
    timestamp,
  };
  if (privateKey) {
    const text = stringToSign({ path: signedPath, version: context.version, timestamp, token, body });
    const signature = await signAsync(text, privateKey.privateKey);
    headers.sign_str = signature;
    built.stringToSign = text;
    built.signature = signature;
    built.ownPublicKey = privateKey.publicKey;
    built.keyFingerprint = privateKey.fingerprint;
  }
  // RSA mode sends Content-Type on every request (docs/platform.md); token mode only with a body. An
  // encrypted body is application/json as the spec says (docs/platform.md), except where the catalog entry
  // names text/plain (the NAS S3 calls, docs/nas.md).
  const encryptedType = plan.encrypt && plan.operation !== 'raw' ? operationSpec(plan.operation).encryptedBodyType : undefined;
  if (mode === 'rsa' || plan.method === 'POST') headers['Content-Type'] = encryptedType ?? 'application/json';
  return built;
}
