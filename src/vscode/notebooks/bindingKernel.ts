// What task and machine kernel bindings share: the one way a binding gets its kernel (started on first use;
// a failed start is tried again on the next run; a kernel whose library gave up reconnecting, after a long
// outage, is reconnected once now that a cell wants it), and which of them run a cell now.

import * as vscode from 'vscode';
import type { KernelState, RemoteKernel } from '../../core/notebooks/remoteKernel';
import type { Activity, ActivityOn } from '../../core/spend/activity';

export interface KernelBinding {
  kernel: Promise<RemoteKernel> | undefined;
}

/** `binding`'s kernel; `stillBound` says whether the binding is still the notebook's (a failed start is then forgotten). */
export async function kernelOfBinding<B extends KernelBinding>(binding: B, stillBound: () => boolean, open: () => Promise<RemoteKernel>): Promise<RemoteKernel> {
  binding.kernel ??= open();
  binding.kernel.catch(() => {
    if (stillBound()) binding.kernel = undefined;
  });
  const kernel = await binding.kernel;
  if (kernel.link === 'disconnected') await kernel.reconnect();
  return kernel;
}

/** Kernels running a cell now (core/spend/activity.ts), each an activity on what `on` says its binding runs on. */
export function busyKernels<B extends { profileId: string; state: KernelState | 'connecting' }>(bindings: Iterable<[string, B]>, on: (binding: B) => ActivityOn): Activity[] {
  const busy: Activity[] = [];
  for (const [notebook, binding] of bindings) {
    if (binding.state === 'busy') busy.push({ kind: 'kernel-busy', profileId: binding.profileId, ...on(binding), label: vscode.Uri.parse(notebook).path.split('/').pop() ?? notebook });
  }
  return busy;
}
