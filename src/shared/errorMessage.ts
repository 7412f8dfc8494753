// The message of anything thrown: an Error's message, or the value as text (a thrown string, a number).
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
