// Safer defaults for creating and scaling tasks: the cheapest in-stock region is preselected (never
// a sold-out one), the node count is checked against inventory, the cost reads as nodes × ¥/h as
// the user types, a scale shows the change in cost, and images start from a few templates an ML
// engineer would use. Pure (no editor API); texts go through the `t` the caller passes
// (vscode.l10n.t in the extension), so they are localized and testable.

import type { l10n } from 'vscode';
import type { Region } from '../../core/compute/api';
import { effectivePointsPerSecond, formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';

/**
 * `vscode.l10n` in the extension, a stub in tests. The import is type-only (nothing loads `vscode` at
 * run time, so plain Node tests use this file); it is what lets the l10n export collect the
 * `l10n.t('…')` calls below into the bundle.
 */
export type L10n = Pick<typeof l10n, 't'>;

export interface OfferChoice {
  device: { device_name: string };
  region: Region;
}

function sellable(choice: OfferChoice): boolean {
  return choice.region.inventory > 0 && effectivePointsPerSecond(choice.region) !== null;
}

/**
 * The region to preselect: the one asked for (from a region row) when it is in stock, else the
 * cheapest in-stock one. Never a sold-out or unpriced region; undefined when nothing is in stock.
 */
export function preselectRegion<T extends OfferChoice>(choices: readonly T[], wanted?: { deviceName: string; region: string }): T | undefined {
  const asked = wanted && choices.find((choice) => choice.device.device_name === wanted.deviceName && choice.region.region === wanted.region);
  if (asked && sellable(asked)) return asked;
  let best: T | undefined;
  let bestPrice = Infinity;
  for (const choice of choices) {
    if (!sellable(choice)) continue;
    const price = effectivePointsPerSecond(choice.region) ?? Infinity;
    if (price < bestPrice) {
      best = choice;
      bestPrice = price;
    }
  }
  return best;
}

export interface Note {
  severity: 'info' | 'warning';
  text: string;
}

/** "2 × ¥1.68/h = ¥3.36/h", or a warning when the nodes exceed what the region has in stock. */
export function nodesNote(nodes: number, region: Region, l10n: L10n): Note | undefined {
  const price = effectivePointsPerSecond(region);
  const cost =
    price === null
      ? l10n.t('No price listed for this region.')
      : l10n.t('{0} × {1} = {2}', nodes, formatYuanPerHour(pointsPerSecondToYuanPerHour(price)), formatYuanPerHour(pointsPerSecondToYuanPerHour(price * nodes)));
  if (nodes > region.inventory) {
    const stock = region.inventory > 0 ? l10n.t('only {0} available', region.inventory) : l10n.t('sold out');
    return { severity: 'warning', text: l10n.t('{0}: {1} in {2}; nodes beyond that stay Pending until capacity frees up.', cost, stock, region.region_name) };
  }
  return { severity: 'info', text: cost };
}

/** The cost change of scaling from `from` to `to` nodes: "¥3.36/h → ¥6.72/h (+¥3.36/h)". */
export function scaleCostNote(from: number, to: number, pointsPerSecond: number | undefined, l10n: L10n): string {
  if (pointsPerSecond === undefined) return to === 1 ? l10n.t('{0} → {1} node; the price of this region is not known.', from, to) : l10n.t('{0} → {1} nodes; the price of this region is not known.', from, to);
  const rate = (nodes: number): number => pointsPerSecondToYuanPerHour(pointsPerSecond * nodes);
  const delta = rate(to) - rate(from);
  const sign = delta >= 0 ? '+' : '-';
  return l10n.t('{0} → {1} ({2}{3})', formatYuanPerHour(rate(from)), formatYuanPerHour(rate(to)), sign, formatYuanPerHour(Math.abs(delta)));
}

export interface ImageTemplate {
  id: 'vllm' | 'jupyter' | 'comfyui';
  label: string;
  description: string;
  image: string;
  ports: string;
  startCommand: string;
}

/** Starting points for the image step; the user can still type any image. */
export function imageTemplates(l10n: L10n): ImageTemplate[] {
  return [
    {
      id: 'vllm',
      label: l10n.t('vLLM OpenAI-compatible server'),
      description: l10n.t('/v1/chat/completions on port 8000; change the model in the start command'),
      image: 'vllm/vllm-openai:latest',
      ports: '8000',
      // eslint-disable-next-line no-restricted-syntax -- a shell command, not prose
      startCommand: 'vllm serve Qwen/Qwen3-8B --host 0.0.0.0 --port 8000',
    },
    {
      id: 'jupyter',
      label: l10n.t('JupyterLab (PyTorch, CUDA)'),
      description: l10n.t('port 8888; the extension makes its login token and keeps it in secret storage'),
      image: 'quay.io/jupyter/pytorch-notebook:cuda12-latest',
      ports: '8888',
      startCommand: '',
    },
    {
      id: 'comfyui',
      label: l10n.t('ComfyUI'),
      description: l10n.t('node-based image generation UI on port 8188'),
      image: 'yanwk/comfyui-boot:cu124-slim',
      ports: '8188',
      startCommand: '',
    },
  ];
}
