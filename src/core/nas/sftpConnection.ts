// Moved to the SSH layer (core/ssh/sftpConnection.ts), shared by volumes and machines.
export * from '../ssh/sftpConnection';
