// A tool's effect comes from the compute catalog: the strongest effect of the operations it performs
// (read < write < destructive), so a tool cannot claim to be safer than what it calls.

import type { OperationEffect, OperationId } from '../compute/api';
import { operationSpec } from '../compute/operations';

const RANK: Record<OperationEffect, number> = { read: 0, write: 1, destructive: 2 };

export function strongestEffect(operations: readonly OperationId[]): OperationEffect {
  let strongest: OperationEffect = 'read';
  for (const operation of operations) {
    const effect = operationSpec(operation).effect;
    if (RANK[effect] > RANK[strongest]) strongest = effect;
  }
  return strongest;
}
