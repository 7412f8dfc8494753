// Core errors say what went wrong as message keys (src/core/errors/messages.ts); the editor words each
// key in the display language by looking its English template up in the one bundle (errorWords.ts
// coreWords; scripts/l10n-export.mjs exports the templates). These checks fail when a key's template is
// not in the bundle, when a key has no zh-cn translation or leaves a placeholder unfilled in either
// language, when a core ConfigError is thrown with bare text (the lint rule), or when a parameter
// carries what the user pasted as a key.
import '../helpers/englishL10n';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { decodeKeyInput } from '../../../src/core/compute/keyInput';
import { ConfigError, coreText } from '../../../src/core/errors';
import { parseRunConfig, RunConfigError } from '../../../src/core/jobs/runConfig';
import { classifyError } from '../../../src/core/errors/classify';
import { CORE_MESSAGES, englishText, fillTemplate, isCoreText, wordText, type CoreMessageKey } from '../../../src/core/errors/messages';
import { assertSecureUrl } from '../../../src/core/http/url';
import { NasConnectionError } from '../../../src/core/nas/errors';
import { configText, coreWords, whatHappened } from '../../../src/vscode/errors/errorWords';

const repoRoot = path.resolve(__dirname, '../../../..');
const readJson = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, string>;
const keys = Object.keys(CORE_MESSAGES) as CoreMessageKey[];
const placeholders = (text: string): string[] => [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();

describe('core error messages: one key, its English in core, its words in the editor', () => {
  it('every key is worded by the editor from its template alone, with every parameter passed on', () => {
    assert.ok(keys.length > 100, `${keys.length} keys`);
    for (const key of keys) {
      const text = coreText(key, ...placeholders(CORE_MESSAGES[key]).map((_, index) => `P${index}`));
      assert.equal(coreWords(text), englishText(text), key);
      for (const mark of placeholders(CORE_MESSAGES[key])) assert.ok(!coreWords(text).includes(mark), `${key}: ${mark} left unfilled`);
    }
  });

  it('every key has both languages: worded through the zh-cn bundle it is Chinese, every parameter filled, nested keys too', () => {
    const chinese = readJson('l10n/bundle.l10n.zh-cn.json');
    const inChinese = (text: Parameters<typeof wordText>[0]): string => wordText(text, (template, args) => fillTemplate(chinese[template] ?? template, args));
    for (const key of keys) {
      const text = coreText(key, ...placeholders(CORE_MESSAGES[key]).map((_, index) => `P${index}`));
      const worded = inChinese(text);
      assert.match(worded, /\p{Script=Han}/u, `${key} is English in zh-cn: ${worded}`);
      assert.ok(!/\{\d+\}/.test(worded), `${key}: a placeholder left unfilled in zh-cn: ${worded}`);
      for (const mark of placeholders(CORE_MESSAGES[key]).map((_, index) => `P${index}`)) assert.ok(worded.includes(mark), `${key}: ${mark} dropped in zh-cn`);
    }
    const nested = inChinese(coreText('key.empty', coreText('role.private')));
    assert.ok(!/private key/.test(nested) && nested.includes(chinese[CORE_MESSAGES['role.private']] ?? '?'), nested);
  });

  it('every template is exported to the bundle and translated to zh-cn with the same placeholders', () => {
    const english = readJson('l10n/bundle.l10n.json');
    const chinese = readJson('l10n/bundle.l10n.zh-cn.json');
    for (const key of keys) {
      const template = CORE_MESSAGES[key];
      assert.ok(Object.hasOwn(english, template), `${key} is not in l10n/bundle.l10n.json: run npm run l10n:export`);
      const translated = chinese[template];
      assert.ok(translated !== undefined && /\p{Script=Han}/u.test(translated), `${key} has no zh-cn translation`);
      assert.deepEqual(placeholders(translated), placeholders(template), `${key}: placeholders`);
    }
  });

  it("a core ConfigError's message and hint are the English text; the editor words the keys, nested ones too", () => {
    const error = new ConfigError(coreText('key.empty', coreText('role.private')), coreText('key.empty.hint.private'));
    assert.equal(error.message, 'The client private key is empty.');
    assert.match(error.hint ?? '', /^Paste the PEM private key/);
    assert.deepEqual(error.words?.message, { key: 'key.empty', args: [{ key: 'role.private', args: [] }] });
    const classification = classifyError(error, { surface: 'compute' });
    assert.ok(classification?.values.words, 'the classification carries the keys');
    assert.equal(whatHappened(classification), `${error.message} ${error.hint}`);
    assert.equal(configText(error), `${error.message} ${error.hint}`);
  });

  it('any core error may carry keys: a failure that is not bad input is worded the same way', () => {
    const error = new NasConnectionError(coreText('nas.sessionPending', 7));
    assert.equal(error.message, 'The SFTP session for volume 7 is still being provisioned; try again in a minute.');
    const classification = classifyError(error, { surface: 'compute', canRetry: true });
    assert.equal(classification?.message, 'failed');
    assert.deepEqual(classification?.values.words, { message: { key: 'nas.sessionPending', args: [7] } });
    assert.equal(whatHappened(classification!), error.message);
    assert.equal(classifyError(new NasConnectionError('Plain text.'), { surface: 'compute' })?.values.words, undefined);
  });

  it("run.json's problems carry keys too, the file's path and the field as parameters", () => {
    assert.throws(
      () => parseRunConfig('{'),
      (error: unknown) => {
        assert.ok(error instanceof RunConfigError);
        assert.equal(error.message, '.compute/run.json: the file is not valid JSON');
        const classification = classifyError(error, { surface: 'compute' });
        assert.deepEqual(classification?.values.words?.message, { key: 'run.notJson', args: ['.compute/run.json', { key: 'run.theFile', args: [] }] });
        assert.equal(whatHappened(classification!), error.message);
        return true;
      },
    );
  });

  it("the editor layer's own worded errors and the agent tools' English keep working as plain text", () => {
    const plain = new ConfigError('Already worded.', 'A hint.');
    assert.equal(plain.words, undefined);
    const classification = classifyError(plain, { surface: 'compute' });
    assert.ok(classification);
    assert.equal(whatHappened(classification), 'Already worded. A hint.');
  });

  it('keys the table does not know are not read from an error (another copy of the core, a forged object)', () => {
    assert.equal(isCoreText({ key: 'no.such.key', args: [] }), false);
    assert.equal(isCoreText({ key: 'key.empty', args: [{ key: 'no.such.key', args: [] }] }), false);
    const forged = Object.assign(new ConfigError('Plain.'), { words: { message: { key: 'constructor', args: [] } } });
    assert.equal(classifyError(forged, { surface: 'compute' })?.values.words, undefined);
  });

  it('what the user pasted as a key is never a parameter, and a URL is shown without its credentials', () => {
    const secret = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7 secret words here!';
    const error = (() => {
      try {
        decodeKeyInput(secret, 'private');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    assert.ok(error instanceof ConfigError && error.words, 'a key error with keys');
    assert.ok(!JSON.stringify(error.words).includes('MIIEvQ'), JSON.stringify(error.words));
    assert.throws(
      () => assertSecureUrl('https://user:hunter2@example.com:bad'),
      (thrown: unknown) => thrown instanceof ConfigError && !JSON.stringify(thrown.words).includes('hunter2') && !thrown.message.includes('hunter2'),
    );
  });
});

describe('lint: a core ConfigError takes keys, not bare text', () => {
  const eslint = new ESLint({ cwd: repoRoot });
  async function found(code: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
    assert.ok(result);
    return result.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
  }
  const head = "import { ConfigError, coreText } from '../errors';\ndeclare const role: string;\ndeclare const flag: boolean;\n";

  it('fails on a string, a template, a concatenation or a conditional of strings, as message or hint', async () => {
    for (const call of [
      "new ConfigError('The key is empty.')",
      'new ConfigError(`The ${role} is empty.`)',
      "new ConfigError(coreText('op.getBody'), 'Paste it ' + 'again.')",
      "new ConfigError(coreText('op.getBody'), flag ? 'Paste it.' : undefined)",
    ]) {
      const messages = await found(`${head}export const e = ${call};\n`, 'src/core/compute/fixture.ts');
      assert.equal(messages.length, 1, call);
      assert.match(messages[0] ?? '', /coreText/);
    }
  });

  it('accepts keys, and bare English in the agent tools (their readers are models)', async () => {
    assert.deepEqual(await found(`${head}export const e = new ConfigError(coreText('key.empty', coreText('role.private')), flag ? coreText('op.getBody') : undefined);\n`, 'src/core/compute/fixture.ts'), []);
    assert.deepEqual(await found(`${head}export const e = new ConfigError('No NAS volume 7.');\n`, 'src/core/tools/fixture.ts'), []);
  });
});
