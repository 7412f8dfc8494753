import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparePasted, MAX_PASTE_CHARS, type ExpectedRequest } from '../../../src/core/requests/signCompare';
import { assertLinearTime, flat } from '../../helpers/linearTime';

const NOW = 1_760_000_000_000;
// Made up at test time; never a real credential.
const TOKEN = `tok_${Math.random().toString(36).slice(2)}_${Date.now().toString(36)}`;

const get: ExpectedRequest = {
  path: '/api/deployment/task/search?task_type=Deployment&search_value=a%2Fb%20c',
  version: '1.0.0',
  timestamp: String(NOW),
  token: TOKEN,
  body: '',
  mode: 'rsa',
  method: 'GET',
  secrets: [TOKEN],
};
const post: ExpectedRequest = { ...get, path: '/api/deployment/task/create', method: 'POST', body: '{"task_name":"t","points":1}' };

function join(fields: string[], separator = '\n'): string {
  return fields.join(separator);
}

function fieldsOf(expected: ExpectedRequest, overrides: Partial<Record<'path' | 'version' | 'timestamp' | 'token' | 'body', string>> = {}): string[] {
  return [
    overrides.path ?? expected.path,
    overrides.version ?? expected.version,
    overrides.timestamp ?? expected.timestamp,
    overrides.token ?? expected.token,
    overrides.body ?? expected.body,
  ];
}

function firstKind(pasted: string, expected = get): string | undefined {
  return comparePasted(pasted, expected, NOW).first?.kind;
}

describe('comparePasted: a string to sign', () => {
  it('finds no difference in the string the extension would sign', () => {
    const result = comparePasted(join(fieldsOf(get)), get, NOW);
    assert.equal(result.pastedKind, 'string-to-sign');
    assert.deepEqual(result.differences, []);
    assert.equal(comparePasted(join(fieldsOf(post)), post, NOW).first, undefined);
  });

  it('names CR LF separators', () => assert.equal(firstKind(join(fieldsOf(get), '\r\n')), 'separator'));
  it('names a literal backslash-n separator', () => assert.equal(firstKind(join(fieldsOf(get), '\\n')), 'separator'));
  it('reads a JSON string literal as the string itself', () => {
    const result = comparePasted(JSON.stringify(join(fieldsOf(get))), get, NOW);
    assert.equal(result.pastedKind, 'string-to-sign');
    assert.equal(result.first, undefined);
  });
  it('names a missing trailing separator before an empty body', () => {
    assert.equal(firstKind(join(fieldsOf(get).slice(0, 4))), 'field-count');
  });
  it('names swapped fields', () => {
    const [path, version, timestamp, token, body] = fieldsOf(get);
    const result = comparePasted(join([path ?? '', timestamp ?? '', version ?? '', token ?? '', body ?? '']), get, NOW);
    assert.equal(result.first?.kind, 'field-order');
    assert.match(result.first?.explanation ?? '', /Field 2 holds the timestamp/);
  });
  it('names a different path', () => assert.equal(firstKind(join(fieldsOf(get, { path: '/api/deployment/task/list' }))), 'path'));
  it('names lower-case escapes', () => assert.equal(firstKind(join(fieldsOf(get, { path: get.path.replace('%2F', '%2f') }))), 'query-escape-case'));
  it('names + for spaces', () => assert.equal(firstKind(join(fieldsOf(get, { path: get.path.replace('%20', '+') }))), 'query-plus'));
  it('names a reordered (sorted) query', () => {
    assert.equal(firstKind(join(fieldsOf(get, { path: '/api/deployment/task/search?search_value=a%2Fb%20c&task_type=Deployment' }))), 'query-order');
  });
  it('names an unencoded query', () => {
    assert.equal(firstKind(join(fieldsOf(get, { path: '/api/deployment/task/search?task_type=Deployment&search_value=a/b c' }))), 'query-unencoded');
  });
  it('names a query encoded twice', () => {
    assert.equal(firstKind(join(fieldsOf(get, { path: get.path.replace('%2F', '%252F') }))), 'query-double-encoded');
  });
  it('names a different query value', () => {
    assert.equal(firstKind(join(fieldsOf(get, { path: get.path.replace('Deployment', 'Other') }))), 'query-value');
  });
  for (const version of ['1', '1.0', '"1.0.0"']) {
    it(`names version ${version}`, () => {
      const kind = firstKind(join(fieldsOf(get, { version })));
      assert.equal(kind, version.startsWith('"') ? 'version-value' : 'version-numeric');
    });
  }
  it('names a 10-digit timestamp', () => assert.equal(firstKind(join(fieldsOf(get, { timestamp: String(Math.floor(NOW / 1000)) }))), 'timestamp-seconds'));
  it('names an expired timestamp', () => assert.equal(firstKind(join(fieldsOf(get, { timestamp: String(NOW - 10 * 60_000) }))), 'timestamp-expired'));
  it('accepts another fresh 13-digit timestamp', () => assert.equal(firstKind(join(fieldsOf(get, { timestamp: String(NOW - 30_000) }))), undefined));
  it('names whitespace around the token, a Bearer prefix and another token, never showing it', () => {
    assert.equal(firstKind(join(fieldsOf(get, { token: ` ${TOKEN}` }))), 'token-whitespace');
    assert.equal(firstKind(join(fieldsOf(get, { token: `Bearer ${TOKEN}` }))), 'token-bearer');
    const other = comparePasted(join(fieldsOf(get, { token: 'tok_someone_elses_token_1234' })), get, NOW);
    assert.equal(other.first?.kind, 'token-value');
    assert.ok(!JSON.stringify(other).includes(TOKEN), 'our token never appears');
    assert.ok(!JSON.stringify(other).includes('someone_elses'), 'their token is masked too');
  });
  it('accepts the masked token of our own display', () => {
    const masked = `${TOKEN.slice(0, 4)}…${TOKEN.slice(-4)}`;
    assert.equal(firstKind(join(fieldsOf(get, { token: masked }))), undefined);
  });
  it('names {} and null for an empty body', () => {
    assert.equal(firstKind(join(fieldsOf(get, { body: '{}' }))), 'body-empty-object');
    assert.equal(firstKind(join(fieldsOf(get, { body: 'null' }))), 'body-empty-object');
  });
  it('names a missing body, JSON whitespace, key order, a trailing newline and other content', () => {
    assert.equal(firstKind(join(fieldsOf(post, { body: '' })), post), 'body-missing');
    assert.equal(firstKind(join(fieldsOf(post, { body: '{"task_name": "t", "points": 1}' })), post), 'body-json-whitespace');
    assert.equal(firstKind(join(fieldsOf(post, { body: '{\n  "task_name": "t",\n  "points": 1\n}' })), post), 'body-json-whitespace');
    assert.equal(firstKind(join(fieldsOf(post, { body: '{"points":1,"task_name":"t"}' })), post), 'body-key-order');
    assert.equal(firstKind(join(fieldsOf(post, { body: `${post.body}\n` })), post), 'body-trailing-newline');
    assert.equal(firstKind(join(fieldsOf(post, { body: '{"task_name":"u","points":1}' })), post), 'body-value');
  });
  it('masks secret body fields in excerpts', () => {
    const secret = `sk_${Date.now().toString(36)}_abcdefgh`;
    const expected: ExpectedRequest = { ...post, body: `{"secret_key":"${secret}","x":1}`, secrets: [TOKEN, secret] };
    const result = comparePasted(join(fieldsOf(expected, { body: `{"secret_key":"${secret}","x":2}` })), expected, NOW);
    assert.equal(result.first?.kind, 'body-value');
    assert.ok(!JSON.stringify(result).includes(secret));
  });
});

describe('comparePasted: headers, curl, replies, signatures', () => {
  const headers = (overrides: Record<string, string> = {}): string =>
    [
      `GET ${overrides.path ?? get.path} HTTP/1.1`,
      `${overrides.versionName ?? 'version'}: ${overrides.version ?? '1.0.0'}`,
      `timestamp: ${overrides.timestamp ?? String(NOW)}`,
      `token: ${TOKEN}`,
      `${overrides.signName ?? 'sign_str'}: ${'A'.repeat(342)}==`,
    ].join('\n');

  it('finds no difference in matching headers', () => {
    const result = comparePasted(headers(), get, NOW);
    assert.equal(result.pastedKind, 'headers');
    assert.deepEqual(result.differences, []);
  });
  it('names a numeric version header, a seconds timestamp, a renamed signature header and a missing one', () => {
    assert.equal(firstKind(headers({ version: '1' })), 'version-numeric');
    assert.equal(firstKind(headers({ timestamp: '1760000000' })), 'timestamp-seconds');
    assert.equal(firstKind(headers({ signName: 'Sign-Str' })), 'header-name');
    assert.equal(firstKind(headers().split('\n').filter((line) => !line.startsWith('sign_str')).join('\n')), 'header-missing');
  });
  it('names the query of the request line', () => assert.equal(firstKind(headers({ path: get.path.replace('%20', '+') })), 'query-plus'));
  it('reads a curl command and its body', () => {
    const curl = `curl --globoff -X POST 'https://h.example${post.path}' -H 'version: 1.0' -H 'timestamp: ${NOW}' -H "token: $COMPUTE_TOKEN" -H "sign_str: $SIGN_STR" --data-raw '{"task_name":"t", "points":1}'`;
    const result = comparePasted(curl, post, NOW);
    assert.equal(result.pastedKind, 'headers');
    assert.deepEqual(
      result.differences.map((difference) => difference.kind),
      ['version-numeric', 'body-json-whitespace'],
    );
  });
  it("reads HTTP/2 headers from a browser's developer tools and a $'…' body of its Copy as cURL", () => {
    const devtools = [':method: GET', `:path: ${get.path.replace('%2F', '%2f')}`, 'version: 1.0.0', `timestamp: ${NOW}`, `token: ${TOKEN}`, 'sign_str: abc'].join('\n');
    assert.equal(firstKind(devtools), 'query-escape-case');
    const curl = `curl 'https://h.example${post.path}' -H 'version: 1.0.0' -H 'timestamp: ${NOW}' -H 'token: ${TOKEN}' -H 'sign_str: x' --data-raw $'{"task_name":"u","points":1}'`;
    assert.equal(firstKind(curl, post), 'body-value');
  });
  it('shows a reply with the secret masked and asks for the request', () => {
    const result = comparePasted(JSON.stringify({ code: 'C001', msg: `bad token ${TOKEN}` }), get, NOW);
    assert.equal(result.pastedKind, 'reply');
    assert.match(result.notes.join(' '), /C001/);
    assert.ok(!result.notes.join(' ').includes(TOKEN));
  });
  it('says a signature alone cannot be compared, and names URL-safe Base64', () => {
    const result = comparePasted(`${'A_'.repeat(171)}==`, get, NOW);
    assert.equal(result.pastedKind, 'signature');
    assert.match(result.notes.join(' '), /URL-safe/);
  });
  it('says when nothing was pasted', () => assert.equal(comparePasted('  \n', get, NOW).pastedKind, 'empty'));
});

describe('comparePasted: hostile input', () => {
  const shapes: [string, (n: number) => string][] = [
    ['spaces', (n) => `curl ${' '.repeat(n)}`],
    ['quotes', (n) => `curl ${'"'.repeat(n)}'`],
    ['header lines', (n) => 'token: x\n'.repeat(n / 9)],
    ['separators', (n) => '\\n'.repeat(n / 2)],
    ['escapes', (n) => `/p?${'%2f'.repeat(n / 3)}\n1.0.0\n${NOW}\n${TOKEN}\n`],
    ['json', (n) => `${'['.repeat(n / 2)}${']'.repeat(n / 2)}`],
    ['deep json body', (n) => join(fieldsOf(post, { body: `${'['.repeat(n / 2)}${']'.repeat(n / 2)}` }))],
  ];
  for (const [name, make] of shapes) {
    // 32n = 224 K characters: below MAX_PASTE_CHARS, so the whole input is read.
    it(`stays linear on ${name} (n vs 32n)`, () => assertLinearTime(name, (n) => flat(make(n)), (text) => comparePasted(text, post, NOW), { n: 7_000 }));
  }
  it('reads at most MAX_PASTE_CHARS and says so', () => {
    const result = comparePasted(`/x\n${'a'.repeat(MAX_PASTE_CHARS * 2)}`, post, NOW);
    assert.equal(result.truncated, true);
    assert.ok(result.notes.some((note) => note.includes(String(MAX_PASTE_CHARS))));
    assert.ok(JSON.stringify(result).length < 10_000, 'the result stays small');
  });
});
