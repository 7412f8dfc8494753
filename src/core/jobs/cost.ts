// What a job will cost before it runs (docs/platform.md "Batch jobs", src/core/compute/units.ts):
// the rate (price per pod × pods at once), the expected cost from the estimated run time, and the
// most it can cost: every pod at once for the whole timeout (the platform kills the job after it).
// Retries run more pods, but never past the timeout, so the cap holds.

import { formatPoints, formatPricePerHour } from '../spend/units';
import { costPointsFor } from './status';

export interface JobCostInput {
  /** Points per second per pod (discount price first). */
  pointsPerSecond: number;
  completions: number;
  parallelism: number;
  timeoutSec: number;
  /** Expected seconds per pod (Spot's estimated_exec_sec), when known. */
  estimatedSec?: number | null;
}

export interface JobCostEstimate {
  /** Points per second for all pods at once. */
  ratePointsPerSecond: number;
  /** Expected cost: rounds of `parallelism` pods × estimated seconds. */
  expectedPoints: number | undefined;
  /** Upper bound: all parallel pods for the whole timeout. */
  capPoints: number;
  rateText: string;
  expectedText: string | undefined;
  capText: string;
}

export function estimateJobCost(input: JobCostInput): JobCostEstimate {
  const pods = Math.max(1, Math.min(input.parallelism, input.completions));
  const ratePointsPerSecond = input.pointsPerSecond * pods;
  const capPoints = costPointsFor(input.pointsPerSecond, pods * input.timeoutSec);
  const expectedPoints =
    input.estimatedSec === undefined || input.estimatedSec === null
      ? undefined
      : Math.min(capPoints, costPointsFor(input.pointsPerSecond, input.completions * input.estimatedSec));
  return {
    ratePointsPerSecond,
    expectedPoints,
    capPoints,
    rateText: formatPricePerHour(ratePointsPerSecond),
    expectedText: expectedPoints === undefined ? undefined : formatPoints(expectedPoints),
    capText: formatPoints(capPoints),
  };
}
