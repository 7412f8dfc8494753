// Task update needs every service's `health_checks` as an object, never null (docs/sandbox-rules.md,
// docs/specs.md): a spec file that says nothing about probes keeps the live task's, so an update from a
// template neither fails nor clears them. Probes that are all off are the same as none in a file.

import type { TaskDetail } from '../compute/api';
import type { HealthChecks, Probe, TaskSpec } from './types';

const PROBE_NAMES = ['liveness_probe', 'startup_probe', 'readiness_probe'] as const;

/** Every probe off, with the platform's documented defaults (what a task made without probes reads back with). */
export function disabledHealthChecks(): HealthChecks {
  const probe = (): Probe => ({ switch: false, probe_type: 'httpGet', path: '/live', port: 80, initial_delay_seconds: 0, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 });
  return Object.fromEntries(PROBE_NAMES.map((name) => [name, probe()])) as HealthChecks;
}

/** True when at least one probe is switched on. */
export function anyProbeOn(checks: unknown): boolean {
  if (!checks || typeof checks !== 'object') return false;
  return PROBE_NAMES.some((name) => (checks as Record<string, { switch?: unknown } | null | undefined>)[name]?.switch === true);
}

/** The live service the file's service `index` updates: same name, else the same position. */
function liveChecks(live: TaskDetail, name: string, index: number): HealthChecks | undefined {
  const services = live.services ?? [];
  const match = services.find((service) => service.service_name === name) ?? services[index];
  const checks = match?.health_checks;
  return checks && typeof checks === 'object' && !Array.isArray(checks) ? (checks as HealthChecks) : undefined;
}

/** The spec as the update reads it: a service without probes takes the live task's, when any of them is on. */
export function withLiveHealthChecks(spec: TaskSpec, live: TaskDetail): TaskSpec {
  return {
    ...spec,
    services: spec.services.map((service, index) => {
      if (service.healthChecks) return service;
      const kept = liveChecks(live, service.name, index);
      return kept && anyProbeOn(kept) ? { ...service, healthChecks: structuredClone(kept) } : service;
    }),
  };
}

/** Fills each update body service still without probes: the live task's object as read, else every probe off. */
export function fillHealthChecks(body: { services: { service_name: string; health_checks: HealthChecks | null }[] }, live: TaskDetail): void {
  body.services.forEach((service, index) => {
    if (service.health_checks) return;
    service.health_checks = structuredClone(liveChecks(live, service.service_name, index)) ?? disabledHealthChecks();
  });
}
