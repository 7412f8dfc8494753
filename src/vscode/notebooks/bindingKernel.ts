// The one way a notebook binding gets its kernel, for task and machine kernels alike: started on first
// use; a failed start is tried again on the next run; a kernel whose library gave up reconnecting (a long
// outage) is reconnected once now that a cell wants it.

import type { RemoteKernel } from '../../core/notebooks/remoteKernel';

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
