// The Tasks view's filter: free text matched against what a user knows a task by — its name, id,
// status and GPU (device, GPU name, region). Every word must match somewhere (case-insensitive), so
// "4090 running" finds running tasks on 4090s. Linear in the task's text; no regex over user input.

import type { TaskSummary } from '../compute/api';

/** Lower-cased words of a filter text; empty when there is nothing to filter by. */
export function filterWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 16);
}

/** The text a task is matched against. */
export function taskSearchText(task: TaskSummary): string {
  const parts: string[] = [String(task.task_name), String(task.task_id), String(task.status)];
  for (const entry of Array.isArray(task.resources) ? task.resources : []) {
    const resource = entry?.resource;
    if (!resource) continue;
    parts.push(String(resource.device_name ?? ''), String(resource.gpu_name ?? ''), String(resource.region ?? ''), String(entry.region_name ?? ''));
  }
  return parts.join('\n').toLowerCase();
}

export function matchesTaskFilter(task: TaskSummary, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = taskSearchText(task);
  return words.every((word) => text.includes(word));
}
