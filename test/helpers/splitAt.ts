// Cuts a text or byte sequence at the given positions (any order, duplicates ignored) into the pieces a
// stream would deliver; joined back, the pieces are the whole again.

export function splitAtPositions<T extends { slice(start?: number, end?: number): T; readonly length: number }>(
  whole: T,
  positions: Iterable<number>,
): T[] {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const pieces: T[] = [];
  let previous = 0;
  for (const position of sorted) {
    pieces.push(whole.slice(previous, position));
    previous = position;
  }
  pieces.push(whole.slice(previous));
  return pieces;
}
