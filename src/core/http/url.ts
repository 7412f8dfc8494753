// URL rules shared by both platform clients: secrets travel in headers, so plain http is only
// acceptable when the bytes never leave this machine.

import { ConfigError, coreText } from '../errors';
import { trimEnd } from '../textTrim';

/** True for hosts whose traffic stays on this machine: 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
}

/**
 * A URL as it may appear in an error: any user name or password removed (also from text that does not
 * parse, where the authority cannot be found reliably: everything before the last `@` after the scheme
 * goes), and cut to a readable length.
 */
export function urlForDisplay(url: string): string {
  const trimmed = url.trim();
  const schemeEnd = trimmed.indexOf('://');
  const authorityStart = schemeEnd === -1 ? 0 : schemeEnd + 3;
  const at = trimmed.lastIndexOf('@');
  const safe = at >= authorityStart ? `${trimmed.slice(0, authorityStart)}…@${trimmed.slice(at + 1)}` : trimmed;
  return safe.length > 200 ? `${safe.slice(0, 200)}…` : safe;
}

/**
 * Parses `url` and refuses anything a secret should not be sent to: non-http(s) schemes, plain http
 * to a non-loopback host, and URLs that embed credentials (they would end up in settings and logs).
 */
export function assertSecureUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new ConfigError(coreText('url.invalid', urlForDisplay(url)), coreText('url.invalid.hint'));
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError(
      // "user:pass@host" parses with the user name as its scheme: then name neither.
      url.includes('@') ? coreText('url.notHttp', urlForDisplay(url)) : coreText('url.scheme', parsed.protocol, parsed.host || urlForDisplay(url)),
      coreText('url.useHttps.hint'),
    );
  }
  if (parsed.username || parsed.password) {
    throw new ConfigError(coreText('url.credentials', parsed.host), coreText('url.credentials.hint'));
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigError(coreText('url.plainHttp', parsed.host), coreText('url.plainHttp.hint'));
  }
  return parsed;
}

/**
 * Appends a path (with its query) to a base URL without re-encoding anything, so the bytes that are
 * signed are the bytes that are sent. A trailing slash on the base and the leading slash of the path
 * collapse into one.
 */
export function joinUrl(base: string, pathWithQuery: string): string {
  const trimmedBase = trimEnd(base, '/');
  const path = pathWithQuery.startsWith('/') ? pathWithQuery : `/${pathWithQuery}`;
  return `${trimmedBase}${path}`;
}
