// "No English in our own words": what the display-language checks (test/integration/l10n) use to find our
// English left in a zh-cn display — code, URLs and platform values removed first, then the words that are
// not on the allowed list (units, acronyms, product names). In the English run the same check must find
// our words, so it can fail.
import * as assert from 'node:assert/strict';
import type { TreeRow } from '../../../src/vscode/views/index';

export function ourWords(zhCn: boolean) {
  // What may stay Latin in Chinese: units, acronyms, protocol and format names, product and model
  // names. Values from the platform (task, device, region, image names) are not our words: each
  // check removes them, and code (fenced blocks, `inline code`, URLs) before looking for words.
  const ALLOWED = new Set([
    'GB', 'GiB', 'MB', 'MiB', 'KB', 'CPU', 'GPU', 'RAM', 'VRAM', 'RSA', 'API', 'HTTP', 'JSON', 'GET', 'POST', 'URL', 'SHA', 'PKCS',
    'LF', 'UTF', 'Base', 'PEM', 'ID', 'Open', 'MaaS', 'token', 'curl', 'shell', 'Compute', 'Toolkit', 'RTX', 'Sandbox', 'sandbox', 'Token',
    'env', 'version', 'timestamp', 'sign_str', 'task_id', 'openssl', 'printf', 'Date', 'Unix', 'min', 'ms', 'h',
    'TB', 'NAS', 'Job', 'Spot', 'Pod', 'vLLM', 'PyTorch', 'CUDA', 'Hugging', 'Face', 'SFTP',
    // The Compare document names line ends, encodings and JSON literals.
    'CR', 'Windows', 'ASCII', 'null', 'Bearer',
  ]);
  /** English words of ours left in `text` once code, URLs and platform values are gone. */
  function englishWords(text: string, values: readonly string[]): string[] {
    // Markdown escapes (tooltips escape platform values: "hebeif\\-1"; appendText writes spaces as &nbsp;) are undone first.
    let rest = text.replace(/&nbsp;/g, ' ').replace(/\\(\W)/g, '$1').replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ').replace(/https?:\/\/\S+/g, ' ').replace(/\$\([\w~-]+\)/g, ' ');
    for (const value of [...values].sort((a, b) => b.length - a.length)) if (value.length > 1) rest = rest.split(value).join(' ');
    // A token with a digit or an underscore is an identifier ("deployment-1229833-iv0k", "task_id").
    const words = rest.match(/[A-Za-z][\w'-]*[A-Za-z0-9]/g) ?? [];
    return [...new Set(words.filter((word) => !ALLOWED.has(word) && !/[_\d]/.test(word)))];
  }
  const check = (what: string, text: string, values: readonly string[]): void => {
    const found = englishWords(text, values);
    // In English the same check finds our words: it can fail.
    if (zhCn) assert.deepEqual(found, [], `${what}: English left in the zh-cn display: ${found.join(', ')}\n${text}`);
    else assert.ok(found.length > 3, `${what}: the check found no English in the English display`);
  };
  const rowTexts = (rows: readonly TreeRow[]): string[] =>
    rows.flatMap((row) => [row.label, row.description ?? '', row.tooltip ?? '', ...rowTexts(row.children ?? [])]);
  /** Every string value in platform data (names, images, region codes). */
  const platformValues = (data: unknown): string[] => {
    const values: string[] = [];
    JSON.stringify(data, (_key, value: unknown) => {
      if (typeof value === 'string') values.push(value);
      return value;
    });
    return values;
  };
  return { ALLOWED, englishWords, check, rowTexts, platformValues };
}
