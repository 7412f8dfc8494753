// How much the NAS read tool reads: its input schema (inputs/nasInputs.ts) and the tool share these.

export const READ_DEFAULT_BYTES = 64 * 1024;
export const READ_MAX_BYTES = 256 * 1024;
