// The line under an answer from a user's own deployment (docs/deployments.md): its approximate cost at the
// deployment's rate over the reply's time, and its tokens. Shared by the chat webview and the export.

import type { TurnCost } from './protocol';
import { formatString } from './webviewStrings';

/** "¥0.0042" under one fen (never "¥0.00" for a cost that is not zero), "¥1.20" above. */
export function formatApproxYuan(yuan: number): string {
  if (!Number.isFinite(yuan) || yuan < 0) return '¥—';
  if (yuan === 0) return '¥0';
  return yuan < 0.01 ? `¥${yuan.toPrecision(2)}` : `¥${yuan.toFixed(2)}`;
}

/** Fills `template` ({0} cost, {1} seconds, {2} ¥/h, {3} deployment) and, with tokens, `tokensTemplate` ({0}). */
export function costLine(cost: TurnCost, template: string, tokensTemplate: string): string {
  const line = formatString(template, formatApproxYuan(cost.yuan), cost.seconds.toFixed(1), formatApproxYuan(cost.yuanPerHour), cost.deployment.slice(0, 80));
  return cost.tokens !== undefined ? `${line} · ${formatString(tokensTemplate, cost.tokens.toLocaleString())}` : line;
}
