// Moved to the SSH layer (core/ssh/entryNames.ts), shared by volumes and machines.
export * from '../ssh/entryNames';
