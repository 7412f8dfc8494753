// A user's own deployed model (docs/deployments.md): curated models, memory estimate, GPU ranking, vLLM
// arguments, readiness, discovery, idle tracking and cost per answer. No editor API.
export * from './catalog';
export * from './cost';
export * from './discovery';
export * from './estimate';
export * from './idle';
export * from './readiness';
export * from './ranking';
export * from './vllmArgs';
export * from './probe';
