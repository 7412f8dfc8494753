// The user's SSH agent (ssh-agent, a hardware key's or 1Password's agent) as a login (docs/machines.md):
// its public keys listed for the pick, and a connect that offers the agent only the one key chosen for the
// machine. Nothing secret passes through here: the agent signs, the key never leaves it. Every question to
// the agent is bounded in time, and a missing agent or key is a clear error (start the agent, `ssh-add`),
// never a hang nor a password retry.

import { BaseAgent, OpenSSHAgent, type GetStreamCallback, type IdentityCallback, type ParsedKey, type SignCallback, type SigningRequestOptions } from 'ssh2';
import type { Duplex } from 'node:stream';
import { coreText } from '../errors';
import { SshAgentError } from './errors';
import { hostKeyFingerprint } from './hostKeys';

export { SshAgentError };

/** One public key the agent holds: its line (`type base64 comment`), fingerprint and a short summary. */
export interface AgentKey {
  publicKey: string;
  fingerprint: string;
  summary: string;
}

const AGENT_TIMEOUT_MS = 10_000;
const MAX_AGENT_KEYS = 50;

/** ssh2's agent with the sockets it opens tracked (its getStream, lib/agent.js), so that a timeout closes them. */
class TrackedAgent extends OpenSSHAgent {
  private readonly streams = new Set<Duplex>();

  override getStream(cb: GetStreamCallback): void {
    super.getStream((error, stream) => {
      if (stream) {
        this.streams.add(stream);
        stream.once('close', () => this.streams.delete(stream));
      }
      cb(error, stream);
    });
  }

  closeAll(): void {
    for (const stream of this.streams) stream.destroy();
    this.streams.clear();
  }
}

function bounded<T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void, timeoutMs: number, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error('timeout'));
    }, timeoutMs);
    run((error, value) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value as T);
    });
  });
}

const unreachable = (socket: string, cause: unknown): SshAgentError => new SshAgentError(coreText('ssh.agentUnreachable', socket), { cause });
const keyLine = (key: ParsedKey): string => `${key.type} ${key.getPublicSSH().toString('base64')}`;
const fingerprintOf = (key: ParsedKey): string => hostKeyFingerprint(key.getPublicSSH());

/** The agent's keys, bounded in time (an agent that accepts and never answers is a failure, not a hang). */
function identities(agent: TrackedAgent, timeoutMs: number): Promise<ParsedKey[]> {
  return bounded<ParsedKey[]>(
    (done) => agent.getIdentities((error, found) => done(error, (found ?? []).filter((key): key is ParsedKey => typeof (key as Partial<ParsedKey>).getPublicSSH === 'function'))),
    timeoutMs,
    () => agent.closeAll(),
  );
}

/** The public keys the agent at `socket` holds (at most 50); SshAgentError when it does not answer. */
export async function agentKeys(socket: string, timeoutMs = AGENT_TIMEOUT_MS): Promise<AgentKey[]> {
  let keys: ParsedKey[];
  try {
    keys = await identities(new TrackedAgent(socket), timeoutMs);
  } catch (error) {
    throw unreachable(socket, error);
  }
  return keys.slice(0, MAX_AGENT_KEYS).map((key) => ({
    publicKey: keyLine(key),
    fingerprint: fingerprintOf(key),
    summary: `${key.type} ${String(key.comment ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 80)}`.trim(),
  }));
}

/**
 * The agent at `socket` offering only the key with `fingerprint` (the one installed on the machine). A
 * missing agent or key fails the connect at once with SshAgentError (ssh2 passes it to the connect).
 */
export class OneKeyAgent extends BaseAgent<ParsedKey> {
  private readonly agent: TrackedAgent;

  constructor(
    private readonly socket: string,
    private readonly fingerprint: string,
    private readonly timeoutMs = AGENT_TIMEOUT_MS,
  ) {
    super();
    this.agent = new TrackedAgent(socket);
  }

  getIdentities(cb: IdentityCallback<ParsedKey>): void {
    identities(this.agent, this.timeoutMs).then(
      (keys) => {
        const mine = keys.filter((key) => fingerprintOf(key) === this.fingerprint);
        if (mine.length === 0) cb(new SshAgentError(coreText('ssh.agentKeyMissing', this.fingerprint)));
        else cb(undefined, mine.slice(0, 1));
      },
      (error: unknown) => cb(unreachable(this.socket, error)),
    );
  }

  sign(pubKey: ParsedKey, data: Buffer, options: SigningRequestOptions, cb?: SignCallback): void;
  sign(pubKey: ParsedKey, data: Buffer, cb: SignCallback): void;
  sign(pubKey: ParsedKey, data: Buffer, options: SigningRequestOptions | SignCallback, cb?: SignCallback): void {
    const callback = typeof options === 'function' ? options : cb;
    const signOptions = typeof options === 'object' ? options : {};
    bounded<Buffer>((done) => void this.agent.sign(pubKey, data, signOptions, (error, signature) => done(error, signature)), this.timeoutMs, () => this.agent.closeAll()).then(
      (signature) => callback?.(undefined, signature),
      (error: unknown) => callback?.(unreachable(this.socket, error)),
    );
  }
}
