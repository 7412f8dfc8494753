// A cell whose end a dropped connection lost (docs/notebooks.md "Reconnect"): the execute reply or the
// idle status that closes a run can be in flight when the WebSocket is cut, and then never arrives — the
// cell would show "running" forever. Once the link is back after a drop, the kernel's state is asked of
// the server (REST, not the WebSocket) every LOOK_MS while connected; idle on IDLE_LOOKS looks in a row while
// the reply is still missing means the run ended unheard. A link the library gave up on ends it at once.

/** Between two looks at the kernel's state after the link came back. */
export const LOOK_MS = 1_000;
/** Idle looks in a row that end a run whose reply never came (a reply in the replay buffer comes first). */
export const IDLE_LOOKS = 2;

export type LinkState = 'connected' | 'connecting' | 'disconnected';

export interface LostReplyPorts {
  /** Hears every change of the link; returns the unsubscribe. */
  onLink(listener: (link: LinkState) => void): () => void;
  /** The kernel's execution state as the server reports it (undefined when it could not be read). */
  executionState(signal: AbortSignal): Promise<string | undefined>;
  /** Waits `ms` (resolves early when the signal aborts). */
  wait(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * Resolves with why a run ended unheard ('idle': the kernel is idle and the reply never came;
 * 'disconnected': the link is gone for good); never resolves while the run may still report. `signal`
 * aborts the watch (the reply came).
 */
export function lostReply(ports: LostReplyPorts, signal: AbortSignal): Promise<'idle' | 'disconnected'> {
  return new Promise((resolve) => {
    let dropped = false;
    let watching = false;
    let current: LinkState = 'connected';
    const stop = ports.onLink((link) => {
      current = link;
      if (link === 'disconnected') finish('disconnected');
      else if (link !== 'connected') dropped = true;
      else if (dropped && !watching) {
        watching = true;
        void watch();
      }
    });
    const finish = (reason: 'idle' | 'disconnected'): void => {
      stop();
      if (!signal.aborted) resolve(reason);
    };
    signal.addEventListener('abort', () => stop(), { once: true });

    async function watch(): Promise<void> {
      let idleLooks = 0;
      while (!signal.aborted) {
        await ports.wait(LOOK_MS, signal);
        if (signal.aborted) return;
        // Only while connected: a reply the server kept for us comes right after the link is back.
        const state = current === 'connected' ? await ports.executionState(signal).catch(() => undefined) : undefined;
        idleLooks = state === 'idle' ? idleLooks + 1 : 0;
        if (idleLooks >= IDLE_LOOKS) return finish('idle');
      }
    }
  });
}
