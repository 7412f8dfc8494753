// Money of a deployment (docs/deployments.md): its ¥/h from the task's price × nodes, and the approximate
// cost of one answer (reply time × that rate). The task bills by the second whether or not it answers.

import { pointsPerSecondToYuanPerHour, pointsToYuan } from '../spend/units';

export interface AnswerCost {
  /** Approximate yuan: seconds × rate. */
  yuan: number;
  seconds: number;
  yuanPerHour: number;
  /** Completion tokens when the server reported usage. */
  tokens?: number;
}

export function deploymentYuanPerHour(pointsPerSecond: number, nodes: number): number {
  return pointsPerSecondToYuanPerHour(pointsPerSecond * Math.max(1, nodes));
}

export function answerCost(durationMs: number, pointsPerSecond: number, nodes: number, tokens?: number): AnswerCost {
  const seconds = Math.max(0, durationMs) / 1000;
  const cost: AnswerCost = { yuan: pointsToYuan(pointsPerSecond * Math.max(1, nodes) * seconds), seconds, yuanPerHour: deploymentYuanPerHour(pointsPerSecond, nodes) };
  if (tokens !== undefined) cost.tokens = tokens;
  return cost;
}
