#!/usr/bin/env node
// Prints, as JSON, every string that lacks a translation: for each language file next to
// package.nls.json (package.nls.<lang>.json) and l10n/bundle.l10n.json (l10n/bundle.l10n.<lang>.json),
// the keys it misses (with the English text to translate), the keys it has that English no longer
// has, and the translations that lost or added a placeholder ({0}), an icon ($(rocket)) or a command
// link ((command:…)), the translations that are only the English text again (`copied`; identifiers,
// units and names excepted: SAME_IN_TRANSLATION), and the walkthrough pages without a <page>.nls.<lang>.md.
// The bundle is exported from every vscode.l10n.t call (npm run l10n:export; a unit test fails when it
// is stale), so a call whose text has no translation is listed here. Exits 1 when anything is listed:
//   node scripts/l10n-missing.mjs [--root DIR] [--lang zh-cn]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Languages every build must carry in full (more may exist; each found one is checked). */
export const REQUIRED_LANGUAGES = ['zh-cn'];

const SOURCES = [
  { english: 'package.nls.json', pattern: /^package\.nls\.([a-z]{2}(?:-[a-z]{2,4})?)\.json$/, dir: '.', file: (lang) => `package.nls.${lang}.json` },
  { english: 'l10n/bundle.l10n.json', pattern: /^bundle\.l10n\.([a-z]{2}(?:-[a-z]{2,4})?)\.json$/, dir: 'l10n', file: (lang) => `l10n/bundle.l10n.${lang}.json` },
];

/**
 * Text that reads the same in a translation: environment ids, product names. Anything else whose
 * translation equals the English is listed as `copied`, unless it holds no lowercase word at all once
 * placeholders and icons are removed (units and acronyms: "{0} KB", "RSA", "{0} × {1} = {2}").
 */
export const SAME_IN_TRANSLATION = new Set(['dev', 'test', 'prod', 'Compute Toolkit']);

/** Whether `text` has words a translation must change. */
export function hasWordsToTranslate(text) {
  if (SAME_IN_TRANSLATION.has(text)) return false;
  return /[a-z]{2,}/.test(text.replace(/\{\d+\}|\$\([\w~-]+\)|\(command:[^)\s]+\)/g, ''));
}

/** The tokens a translation must keep unchanged: placeholders, codicons and command links. */
export function protectedTokens(text) {
  const tokens = text.match(/\{\d+\}|\$\([\w-]+\)|\(command:[^)\s]+\)/g) ?? [];
  return tokens.sort();
}

/** Compares one English table with one translation. */
export function compareTables(english, translated) {
  const missing = {};
  const copied = {};
  const tokenMismatch = {};
  for (const [key, source] of Object.entries(english)) {
    const target = translated[key];
    // The bundle maps the English text to itself, so its value is what to translate.
    const text = typeof source === 'string' ? source : key;
    if (typeof target !== 'string' || target.trim() === '') {
      missing[key] = text;
      continue;
    }
    if (target === text && hasWordsToTranslate(text)) copied[key] = text;
    const want = protectedTokens(text);
    const have = protectedTokens(target);
    if (want.join('\u0000') !== have.join('\u0000')) tokenMismatch[key] = { english: text, translated: target, expected: want, found: have };
  }
  const extra = Object.keys(translated).filter((key) => !Object.hasOwn(english, key));
  return { missing, copied, extra, tokenMismatch };
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** Every problem of every translation under root, keyed by the translation's path. */
export function missingTranslations(root, onlyLanguage) {
  const report = {};
  for (const source of SOURCES) {
    const english = readJson(path.join(root, source.english));
    const found = fs.readdirSync(path.join(root, source.dir)).map((name) => source.pattern.exec(name)?.[1]).filter(Boolean);
    const languages = [...new Set([...REQUIRED_LANGUAGES, ...found])].filter((lang) => !onlyLanguage || lang === onlyLanguage);
    for (const lang of languages) {
      const file = source.file(lang);
      const full = path.join(root, file);
      const translated = fs.existsSync(full) ? readJson(full) : {};
      const result = compareTables(english, translated);
      if (!fs.existsSync(full)) result.fileMissing = true;
      const problems = Object.keys(result.missing).length + Object.keys(result.copied).length + result.extra.length + Object.keys(result.tokenMismatch).length;
      if (problems > 0) report[file] = result;
    }
  }
  // Walkthrough pages: VS Code shows media/walkthrough/<page>.nls.<lang>.md when it exists.
  const pagesDir = path.join(root, 'media', 'walkthrough');
  if (fs.existsSync(pagesDir)) {
    const names = fs.readdirSync(pagesDir);
    const pages = names.filter((name) => name.endsWith('.md') && !/\.nls\.[\w-]+\.md$/.test(name));
    const languages = [...new Set([...REQUIRED_LANGUAGES, ...names.map((name) => /\.nls\.([\w-]+)\.md$/.exec(name)?.[1]).filter(Boolean)])]
      .filter((lang) => !onlyLanguage || lang === onlyLanguage);
    for (const lang of languages) {
      const missing = pages.filter((page) => !names.includes(page.replace(/\.md$/, `.nls.${lang}.md`)));
      if (missing.length > 0) report[`media/walkthrough/*.nls.${lang}.md`] = { missingPages: missing.map((page) => `media/walkthrough/${page}`) };
    }
  }
  return report;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const value = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const root = path.resolve(value('--root') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const report = missingTranslations(root, value('--lang'));
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = Object.keys(report).length > 0 ? 1 : 0;
}
