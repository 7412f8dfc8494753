// A person-readable name for a chat model id. The platform lists ids as `<vendor>/<model>`
// (`qwen/qwen3-32b`) and no names, so the picker shows "Qwen3 32B (qwen)" and keeps the id as its value
// and tooltip. A user's own deployment is `deployment:<taskId>/<model>` (docs/deployments.md) and reads
// "Qwen3-8B · my-task" everywhere it is named (the chat, VS Code's model list). Bounded and linear: the
// id comes from a server.

const MAX_ID_CHARS = 200;

function word(part: string): string {
  // Sizes and versions read as written in model cards: 32b → 32B, 8x7b → 8X7B, v3 → V3.
  if (/^\d+(\.\d+)?[bkmt]$/i.test(part) || /^\d+x\d+b$/i.test(part) || /^v\d+(\.\d+)*$/i.test(part)) return part.toUpperCase();
  return part.charAt(0).toUpperCase() + part.slice(1);
}

/** "qwen/qwen3-32b" → "Qwen3 32B (qwen)"; an id without a vendor keeps only the model part. */
export function modelDisplayName(id: string): string {
  const bounded = id.length > MAX_ID_CHARS ? id.slice(0, MAX_ID_CHARS) : id;
  const slash = bounded.indexOf('/');
  const vendor = slash > 0 ? bounded.slice(0, slash) : '';
  const model = slash >= 0 ? bounded.slice(slash + 1) : bounded;
  const words = model.split(/[-_\s]+/).filter((part) => part.length > 0).map(word);
  if (words.length === 0) return bounded;
  const name = words.join(' ');
  return vendor ? `${name} (${vendor})` : name;
}

const DEPLOYMENT_PREFIX = 'deployment:';
const MAX_TASK_CHARS = 64;

/** "Qwen/Qwen3-8B" served by task "my-task" → "Qwen3-8B · my-task" (without a task name: "Qwen3-8B"). */
export function deployedModelName(model: string, taskName?: string): string {
  const bounded = model.length > MAX_ID_CHARS ? model.slice(0, MAX_ID_CHARS) : model;
  const slash = bounded.indexOf('/');
  const short = slash >= 0 && slash < bounded.length - 1 ? bounded.slice(slash + 1) : bounded;
  const task = taskName ? taskName.slice(0, MAX_TASK_CHARS) : '';
  return task ? `${short} · ${task}` : short;
}

/**
 * What the chat calls the model `id`: a deployed one by the name its option carries ("Qwen3-8B · my-task"),
 * or, once the deployment is gone from the list, by its model ("Qwen3-8B"), never the raw
 * `deployment:1229834/…` id; a hosted model keeps its id.
 */
export function chatModelName(id: string, deployed: readonly { id: string; name: string }[] = []): string {
  if (!id.startsWith(DEPLOYMENT_PREFIX)) return id;
  const listed = deployed.find((option) => option.id === id)?.name;
  if (listed !== undefined) return listed;
  const slash = id.indexOf('/');
  return deployedModelName(slash >= 0 ? id.slice(slash + 1) : id.slice(DEPLOYMENT_PREFIX.length));
}
