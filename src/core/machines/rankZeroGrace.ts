// How long the other ranks of a group run may still end by themselves once rank 0 (the rendezvous host)
// failed (docs/machines.md "Network groups"): the setting `computeToolkit.machines.rankZeroGraceSeconds`,
// read by Config through rankZeroGraceMs. Kept apart from groupRun.ts so that Config loads no SSH code.

export const RANK_ZERO_GRACE_SECONDS = { default: 20, min: 0, max: 3600 } as const;

export const RANK_ZERO_GRACE_MS = RANK_ZERO_GRACE_SECONDS.default * 1000;

/** The setting's value as milliseconds: a number of seconds clamped to 0–3600, anything else the default. */
export function rankZeroGraceMs(seconds: unknown): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return RANK_ZERO_GRACE_MS;
  return Math.round(Math.min(RANK_ZERO_GRACE_SECONDS.max, Math.max(RANK_ZERO_GRACE_SECONDS.min, seconds)) * 1000);
}
