// The building blocks of the result schemas (docs/shapes.md): zod schemas that check
// only what the code reads and let extra fields pass (loose objects); a list the platform may send as
// null or leave out is read as empty; a paged list without a count counts its results. Every area's
// resultShapes.ts builds on these; this file imports nothing from the areas (no import circle).

import { z } from 'zod';

export const string = z.string();
export const number = z.number();
export const boolean = z.boolean();
export const anything = z.unknown();

/** null or absent passes as it is; anything else must pass `schema`. */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

/** An object with at least `fields`; other fields pass untouched. */
export const record = <T extends z.ZodRawShape>(fields: T) => z.looseObject(fields);

/** An array of items; null or absent is read as an empty list when `emptyIfMissing`. */
export function list<T extends z.ZodType>(item: T, emptyIfMissing = false): z.ZodType<z.output<T>[], unknown> {
  return emptyIfMissing ? z.array(item).nullish().transform((value) => value ?? []) : z.array(item);
}

/** `{count, results}`; a missing count is the length of the results. */
export function paged<T extends z.ZodType>(item: T) {
  return z
    .looseObject({ results: z.array(item), count: number.nullish() })
    .transform((page) => ({ ...page, count: typeof page.count === 'number' ? page.count : page.results.length }));
}

/** `shape`, or `fallback` when the value is null or absent. */
export function orWhenMissing<T extends z.ZodType, F>(shape: T, fallback: F) {
  return shape.nullish().transform((value) => value ?? fallback);
}
