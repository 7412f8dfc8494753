// The building blocks the tools' input schemas share. Every string has a maximum length (the input
// check caps strings at 4096 characters anyway; the schema says so to the model).

import { z } from 'zod';

/** A positive id the platform assigned, with what it is and where it comes from. */
export function idField(description: string, example: number): z.ZodInt {
  return z.int().min(1).meta({ description, examples: [example] });
}

/** A string that must not be blank (the check trims before it counts). */
export function nonEmptyText(maxLength: number): z.ZodString {
  return z.string().min(1).max(maxLength);
}

/** Environment variables, name → value. */
export function envField(description: string, examples?: readonly Record<string, string>[]): z.ZodRecord<z.ZodString, z.ZodString> {
  return z.record(z.string(), z.string().max(4096)).meta({ description, ...(examples ? { examples: [...examples] } : {}) });
}
