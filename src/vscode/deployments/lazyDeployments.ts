// The deployment clients pull in the HTTP stack: loaded on first use, not at activation (see lazyCore.ts).

type ProbeCore = typeof import('../../core/deployments/probe');
let probeCore: ProbeCore | undefined;

export function loadDeploymentsCore(): ProbeCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load (see lazyCore.ts)
  probeCore ??= require('../../core/deployments/probe') as ProbeCore;
  return probeCore;
}
