// A stand-in for the platform console ({console_url}) so "open console" links in the extension
// land somewhere that explains where the sandbox's keys come from.

import { escapeHtml } from './http';

export function consolePage(path: string, computeBaseUrl: string, modelApiBaseUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Compute Toolkit sandbox console</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}code{background:#8882;padding:0 .3em}</style>
</head>
<body>
<h1>Local sandbox console</h1>
<p>This is the local sandbox, not the real platform console. You asked for <code>${escapeHtml(path)}</code>.</p>
<ul>
<li>Compute API (interface A): <code>${escapeHtml(computeBaseUrl)}</code></li>
<li>Model API (interface B): <code>${escapeHtml(modelApiBaseUrl)}</code></li>
</ul>
<p>API keys are generated when the sandbox starts: a token-mode key, an RSA-mode key pair with the
platform public key, and a model API key. The extension's "Connect to Local Sandbox" reads them from
<code>/__sandbox/bootstrap</code>; on the real platform you would create them under key management.</p>
</body>
</html>
`;
}
