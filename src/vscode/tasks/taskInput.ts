// What the create-task wizard collects, how each field is validated, and the platform body it becomes.
// Pure functions but for vscode.l10n.t (messages in the display language), shared by the wizard and the
// non-UI ComputeApi.createTask; node unit tests load them with test/unit/helpers/englishL10n.ts.
import * as vscode from 'vscode';
import type { Region, TaskCreateBody, TaskSummary } from '../../core/compute/api';

export interface TaskCreateInput {
  name: string;
  /** A region row from a fresh resource search: its mark, resource and region_name go into the body. */
  region: Region;
  image: string;
  ports: number[];
  /** Node count (`points`). */
  points: number;
  /** Environment as `KEY=VALUE` pairs; see formatEnv. */
  env?: Record<string, string>;
  /** Start command line; empty keeps the image's own entrypoint. */
  startCommand?: string;
  /** Encrypt the body with the platform public key (RSA-mode profiles only). */
  encrypt?: boolean;
  /** NAS volumes to mount (Active, in the task's region; docs/nas.md). None by default. */
  nasMounts?: { storage_id: number; target_dir: string }[];
}

/** The platform's own example image (docs/platform.md), a small web app listening on 6688. */
export const DEFAULT_IMAGE = 'harbor.suanleme.cn/public-hub/dailyhot:1.0';
export const DEFAULT_PORTS = '6688';
export const MAX_POINTS = 100;

export function validateTaskName(value: string): string | undefined {
  const name = value.trim();
  if (name.length === 0) return vscode.l10n.t('Enter a task name.');
  if (name.length > 64) return vscode.l10n.t('At most 64 characters (this one has {0}).', name.length);
  if (/[\u0000-\u001f\u007f]/.test(name)) return vscode.l10n.t('The name cannot contain control characters.');
  return undefined;
}

export function validateImage(value: string): string | undefined {
  const image = value.trim();
  if (image.length === 0) return vscode.l10n.t('Enter an image, e.g. {0}.', 'harbor.suanleme.cn/public-hub/<name>:<tag>');
  if (/\s/.test(image)) return vscode.l10n.t('An image reference has no spaces.');
  if (!/^[a-z0-9][a-z0-9._\-/:@]*$/i.test(image)) return vscode.l10n.t('Use the form registry/repository:tag (letters, digits, . _ - / : @).');
  return undefined;
}

/** "6688, 80" → [6688, 80]; every port an integer in 1–65535, no duplicates, at least one. */
export function parsePorts(text: string): { ports: number[] } | { error: string } {
  const parts = text
    .split(/[,\s]+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) return { error: vscode.l10n.t('Enter at least one port, e.g. 8080 or 8080, 80.') };
  const ports: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { error: vscode.l10n.t('"{0}" is not a port number.', part) };
    const port = Number(part);
    if (port < 1 || port > 65535) return { error: vscode.l10n.t('Port {0} is outside 1–65535.', port) };
    if (ports.includes(port)) return { error: vscode.l10n.t('Port {0} is listed twice.', port) };
    ports.push(port);
  }
  return { ports };
}

export function parsePoints(text: string): { points: number } | { error: string } {
  const value = text.trim();
  if (!/^\d+$/.test(value)) return { error: vscode.l10n.t('Enter a whole number of nodes.') };
  const points = Number(value);
  if (points < 1) return { error: vscode.l10n.t('At least one node.') };
  if (points > MAX_POINTS) return { error: vscode.l10n.t('At most {0} nodes per task from here.', MAX_POINTS) };
  return { points };
}

/**
 * "KEY=VALUE; OTHER=x" (an input box is one line: pairs separated by ';' or new lines) → a map.
 * Empty text means no environment.
 */
export function parseEnv(text: string): { env: Record<string, string> } | { error: string } {
  const env: Record<string, string> = {};
  const pairs = text
    .split(/[;\n]/)
    .map((pair) => pair.trim())
    .filter((pair) => pair.length > 0);
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) return { error: vscode.l10n.t('"{0}" is not KEY=VALUE.', pair) };
    const key = pair.slice(0, equals).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return { error: vscode.l10n.t('"{0}" is not a valid variable name.', key) };
    if (key in env) return { error: vscode.l10n.t('{0} is set twice.', key) };
    env[key] = pair.slice(equals + 1).trim();
  }
  return { env };
}

/**
 * The platform's `env` is one string whose format its docs do not show; we send dotenv-style
 * KEY=VALUE lines, the usual form for container environments. null when there is none.
 */
export function formatEnv(env: Record<string, string> | undefined): string | null {
  const entries = Object.entries(env ?? {});
  return entries.length === 0 ? null : entries.map(([key, value]) => `${key}=${value}`).join('\n');
}

/** A container name from the image ("…/dailyhot:1.0" → "dailyhot"), DNS-label safe. */
export function serviceNameFor(image: string): string {
  const lastSegment = image.trim().split('/').pop() ?? '';
  const repository = lastSegment.split(/[:@]/)[0] ?? '';
  const name = repository
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  return name.length > 0 ? name : 'container-01';
}

/** The platform's full create body (docs/platform.md): resources[] copied from the region, one service. */
export function buildTaskCreateBody(input: TaskCreateInput): TaskCreateBody {
  const command = input.startCommand?.trim();
  return {
    task_type: 'Deployment',
    task_name: input.name.trim(),
    points: input.points,
    resources: [{ mark: input.region.mark.mark, resource: input.region.mark.resource, region_name: input.region.region_name }],
    services: [
      {
        service_name: serviceNameFor(input.image),
        service_image: input.image.trim(),
        remote_ports: input.ports.map((service_port) => ({ service_port })),
        env: formatEnv(input.env),
        // The whole line goes in `command`; the platform's example leaves `args` empty.
        start_script_v2: { command: command ? command : null, args: [] },
        ...(input.nasMounts && input.nasMounts.length > 0 ? { nas_storage_config: input.nasMounts.map((mount) => ({ storage_id: mount.storage_id, target_dir: mount.target_dir })) } : {}),
      },
    ],
  };
}

/** The row shown in the Tasks view before the platform lists the new task. */
export function optimisticTask(taskId: number, body: TaskCreateBody): TaskSummary {
  return {
    task_id: taskId,
    task_name: body.task_name,
    status: 'Pending',
    points: body.points,
    runing_points: 0,
    billing_value: 0,
    forecast_value: 0,
    create_time: new Date().toISOString(),
    resources: body.resources,
    services: body.services.map((service, index) => ({ ...service, service_id: -(index + 1) })),
  };
}
