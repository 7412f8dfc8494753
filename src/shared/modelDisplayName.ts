// A person-readable name for a chat model id. The platform lists ids as `<vendor>/<model>`
// (`qwen/qwen3-32b`) and no names, so the picker shows "Qwen3 32B (qwen)" and keeps the id as its value
// and tooltip. Bounded and linear: the id comes from a server.

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
