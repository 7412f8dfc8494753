// Task update needs every service's `health_checks` as an object with each of the three probes, every
// field present (docs/sandbox-rules.md, docs/specs.md): a spec file that says nothing about probes (or
// `healthChecks: {}`) sends the live task's back unchanged, and a probe the file leaves out keeps the
// live one, so an update from a template neither fails nor clears them. Probes that are all off are the
// same as none in a file.

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
      const kept = liveChecks(live, service.name, index);
      if (!kept || !anyProbeOn(kept)) return hasProbe(service.healthChecks) ? service : withoutChecks(service);
      return { ...service, healthChecks: { ...structuredClone(kept), ...(service.healthChecks ?? {}) } };
    }),
  };
}

/**
 * Gives each update body service all three probes: the file's, else the live task's as read (its whole
 * object unchanged when the file has none), else one switched off.
 */
export function fillHealthChecks(body: { services: { service_name: string; health_checks: HealthChecks | null }[] }, live: TaskDetail): void {
  body.services.forEach((service, index) => {
    const filled: Record<string, unknown> = { ...structuredClone(liveChecks(live, service.service_name, index) ?? {}), ...(service.health_checks ?? {}) };
    const off = disabledHealthChecks();
    for (const name of PROBE_NAMES) if (!isProbe(filled[name])) filled[name] = off[name];
    service.health_checks = filled as HealthChecks;
  });
}

function hasProbe(checks: HealthChecks | undefined): boolean {
  return checks !== undefined && PROBE_NAMES.some((name) => checks[name] !== undefined);
}

function withoutChecks<T extends { healthChecks?: HealthChecks }>(service: T): T {
  const { healthChecks: _none, ...rest } = service;
  return rest as T;
}

function isProbe(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
