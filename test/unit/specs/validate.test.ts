import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { parseSource } from '../../../src/core/specs/sourceMap';
import { validateSpecText } from '../../../src/core/specs/validate';
import { assertLinearTime, flat } from '../../helpers/linearTime';

const valid = {
  kind: 'task',
  name: 'demo',
  nodes: 1,
  resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
  services: [{ name: 'web', image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688], env: { MODE: 'prod', HF_TOKEN: { secret: 'hf' } } }],
};

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length - 1;
}

describe('spec validation', () => {
  it('accepts a valid task spec in JSON and YAML', () => {
    for (const [text, format] of [[JSON.stringify(valid, null, 2), 'json'], [stringify(valid), 'yaml']] as const) {
      const result = validateSpecText(text, format);
      assert.deepEqual(result.diagnostics, [], format);
      assert.equal(result.spec?.kind, 'task');
    }
  });

  it('flags a typo in a field name on its line, with the field it most likely meant (JSON and YAML)', () => {
    const spec = { ...valid, services: [{ ...valid.services[0], imgae: 'x' }] };
    for (const [text, format] of [[JSON.stringify(spec, null, 2), 'json'], [stringify(spec), 'yaml']] as const) {
      const result = validateSpecText(text, format);
      assert.equal(result.spec, undefined);
      const typo = result.diagnostics.find((diagnostic) => diagnostic.message.includes('imgae'));
      assert.ok(typo, format);
      assert.match(typo.message, /did you mean "image"/);
      assert.equal(typo.start.line, lineOf(text, 'imgae'), format);
      assert.equal(text.split('\n')[typo.start.line]!.slice(typo.start.character, typo.end.character).replace(/"/g, ''), 'imgae');
    }
  });

  it('flags memory written in GB, and a number that reads as GiB, on their lines', () => {
    const spec = { ...valid, resource: { ...valid.resource, memoryMi: '16GB' }, services: [{ ...valid.services[0], sharedMemoryMi: 16 }] };
    for (const [text, format] of [[JSON.stringify(spec, null, 2), 'json'], [stringify(spec), 'yaml']] as const) {
      const result = validateSpecText(text, format);
      const gb = result.diagnostics.filter((diagnostic) => diagnostic.path === 'resource.memoryMi');
      assert.equal(gb.length, 1, `one message for the GB value (${format}), not a type error too`);
      assert.equal(gb[0]!.severity, 'error');
      assert.match(gb[0]!.message, /16384/);
      assert.equal(gb[0]!.start.line, lineOf(text, 'memoryMi'));
      const small = result.diagnostics.find((diagnostic) => diagnostic.path === 'services[0].sharedMemoryMi');
      assert.equal(small?.severity, 'warning');
      assert.equal(small?.start.line, lineOf(text, 'sharedMemoryMi'));
    }
  });

  it('refuses inline secrets shaped as objects and names the allowed forms', () => {
    const spec = { ...valid, services: [{ ...valid.services[0], env: { KEY: { value: 'sk-123' } } }] };
    const result = validateSpecText(JSON.stringify(spec, null, 2), 'json');
    assert.equal(result.diagnostics.length, 1);
    assert.match(result.diagnostics[0]!.message, /secret reference/);
  });

  it('reports syntax errors at their place and nothing else', () => {
    const text = '{\n  "kind": "task",\n  "name": "x" "nodes": 1\n}';
    const result = validateSpecText(text, 'json');
    assert.ok(result.diagnostics.length >= 1);
    assert.equal(result.diagnostics[0]!.start.line, 2);
    const yaml = validateSpecText('kind: task\nname: [x\n', 'yaml');
    assert.ok(yaml.diagnostics.length >= 1 && yaml.spec === undefined);
  });

  it('checks job rules the schema cannot: spot needs an estimate, mounts name declared volumes', () => {
    const job = {
      kind: 'job',
      name: 'train',
      resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
      spot: true,
      completions: 1,
      parallelism: 1,
      timeoutSeconds: 600,
      services: [{ name: 'main', image: 'pytorch/pytorch:2.4', sharedMemoryMounts: [{ volume: 'shm', targetDir: '/dev/shm' }] }],
    };
    const messages = validateSpecText(JSON.stringify(job, null, 2), 'json').diagnostics.map((diagnostic) => diagnostic.message);
    assert.ok(messages.some((message) => message.includes('estimatedSeconds')));
    assert.ok(messages.some((message) => message.includes('"shm" is not declared')));
  });

  it('a memory mount names a memory volume and a disk mount a disk volume, as the platform requires', () => {
    const job = {
      kind: 'job',
      name: 'train',
      resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
      completions: 1,
      parallelism: 1,
      timeoutSeconds: 600,
      sharedDiskVolumes: ['scratch'],
      sharedMemoryVolumes: [{ name: 'shm', sizeMi: 1024 }],
      services: [{ name: 'main', image: 'pytorch/pytorch:2.4', sharedMemoryMounts: [{ volume: 'scratch', targetDir: '/dev/shm' }], sharedDiskMounts: [{ volume: 'shm', targetDir: '/scratch' }] }],
    };
    const paths = validateSpecText(JSON.stringify(job, null, 2), 'json').diagnostics.map((diagnostic) => diagnostic.path);
    assert.deepEqual(paths.sort(), ['services[0].sharedDiskMounts[0].volume', 'services[0].sharedMemoryMounts[0].volume']);
  });

  it('refuses control characters (C0 and C1) in a task\'s or job\'s name, with a clear message on the name', () => {
    const job = { kind: 'job', name: 'train', resource: valid.resource, completions: 1, parallelism: 1, timeoutSeconds: 600, services: [{ name: 'main', image: 'pytorch/pytorch:2.4' }] };
    for (const spec of [valid, job]) {
      assert.deepEqual(validateSpecText(JSON.stringify({ ...spec, name: '训练 run-1 (v2)' }), 'json').diagnostics, [], 'any printable name');
      for (const control of ['\u001b]52;c;eA==\u0007', '\u009b2J', '\u009d8;;https://x.invalid\u009c', '\u0085', '\u0000', '\u007f', '\t']) {
        for (const format of ['json', 'yaml'] as const) {
          const named = { ...spec, name: `x${control}y` };
          const text = format === 'json' ? JSON.stringify(named, null, 2) : stringify(named);
          const result = validateSpecText(text, format);
          assert.equal(result.spec, undefined, `${format} ${JSON.stringify(control)}`);
          const diagnostic = result.diagnostics.find((one) => one.path === 'name');
          assert.ok(diagnostic, JSON.stringify(result.diagnostics));
          assert.match(diagnostic.message, /control character/);
          assert.equal(diagnostic.start.line, lineOf(text, format === 'json' ? '"name"' : 'name:'), format);
        }
      }
    }
  });
});

// Random spec-like trees: keys are safe names; leaves are strings and numbers.
const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/);
const tree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.string({ maxLength: 12 }), fc.integer(), tie('object'), tie('array')),
  object: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  array: fc.array(tie('node'), { maxLength: 3 }),
})).object;

function leaves(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...path, index]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([name, item]) => leaves(item, [...path, name]));
  return [{ path, value }];
}

describe('spec line mapping (properties)', () => {
  it('locates every key and leaf value of any JSON layout at its own text', () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const source = parseSource(text, 'json');
        for (const leaf of leaves(value)) {
          const span = source.locate(leaf.path, 'value');
          assert.equal(text.slice(span.start, span.end), JSON.stringify(leaf.value));
          const last = leaf.path.at(-1);
          if (typeof last === 'string') {
            const keySpan = source.locate(leaf.path, 'key');
            assert.equal(text.slice(keySpan.start, keySpan.end), JSON.stringify(last));
          }
          // Offsets and positions agree both ways.
          assert.equal(source.offsetAt(source.positionAt(span.start)), span.start);
        }
      }),
    );
  });

  it('locates every key and leaf value of any YAML layout at its own text', () => {
    fc.assert(
      fc.property(tree, fc.boolean(), (value, flow) => {
        const text = stringify(value, flow ? { collectionStyle: 'flow' } : {});
        const source = parseSource(text, 'yaml');
        assert.deepEqual(source.syntaxErrors, []);
        for (const leaf of leaves(value)) {
          const span = source.locate(leaf.path, 'value');
          const shown = text.slice(span.start, span.end);
          // YAML may quote or fold a scalar; parsing the located text gives the value back.
          if (typeof leaf.value === 'number') assert.equal(Number(shown), leaf.value);
          const last = leaf.path.at(-1);
          if (typeof last === 'string') {
            const keySpan = source.locate(leaf.path, 'key');
            assert.ok(text.slice(keySpan.start, keySpan.end).includes(last), `${text.slice(keySpan.start, keySpan.end)} vs ${last}`);
          }
        }
      }),
    );
  });

  it('puts an unknown field anywhere in a service on the line of its key', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 5 }), fc.boolean(), (index, services, yaml) => {
        const list = Array.from({ length: services + 1 }, (_, i) => ({ ...valid.services[0], name: `svc-${i}` }));
        const target = Math.min(index, services);
        (list[target] as Record<string, unknown>).zzUnknown = 1;
        const spec = { ...valid, services: list };
        const text = yaml ? stringify(spec) : JSON.stringify(spec, null, 2);
        const diagnostics = validateSpecText(text, yaml ? 'yaml' : 'json').diagnostics;
        assert.equal(diagnostics.length, 1);
        assert.equal(diagnostics[0]!.path, `services[${target}].zzUnknown`);
        assert.equal(diagnostics[0]!.start.line, lineOf(text, 'zzUnknown'));
      }),
    );
  });
});

describe('spec validation on adversarial input', () => {
  // Sizes keep the 32× input under MAX_SPEC_CHARS (512 K), so the large input is read, not refused for size.
  it('refuses deep nesting before parsing, in linear time', () => {
    const deep = validateSpecText(flat('['.repeat(100_000)), 'json');
    assert.match(deep.diagnostics[0]!.message, /nests deeper/);
    assertLinearTime('nesting check', (n) => flat(`${'['.repeat(n)}`), (text) => validateSpecText(text, 'json'), { n: 12_000 });
    assertLinearTime('yaml nesting check', (n) => flat(`a: ${'['.repeat(n)}`), (text) => validateSpecText(text, 'yaml'), { n: 12_000 });
  });

  it('stays linear with many unknown fields and many env entries (JSON and YAML)', () => {
    const wide = (n: number) => ({ ...valid, services: [{ ...valid.services[0], env: Object.fromEntries(Array.from({ length: n }, (_, i) => [`V${i}`, { bad: i }])) }] });
    const unknown = (n: number) => ({ ...valid, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`unknownField${i}`, i])) });
    assertLinearTime('many invalid env values (json)', (n) => flat(JSON.stringify(wide(n), null, 1)), (text) => validateSpecText(text, 'json'), { n: 300 });
    assertLinearTime('many unknown fields (json)', (n) => flat(JSON.stringify(unknown(n), null, 1)), (text) => validateSpecText(text, 'json'), { n: 300 });
    assertLinearTime('many unknown fields (yaml)', (n) => flat(stringify(unknown(n))), (text) => validateSpecText(text, 'yaml'), { n: 300 });
  });

  it('bounds YAML alias expansion and refuses huge files', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 9; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`);
    const result = validateSpecText(bomb.join('\n'), 'yaml');
    assert.equal(result.spec, undefined);
    assert.ok(result.diagnostics.length >= 1);
    assert.match(validateSpecText(' '.repeat(600 * 1024), 'json').diagnostics[0]!.message, /larger than/);
  });
});

describe('where a missing field is reported', () => {
  it('on the key of the object that lacks it, with the field named (JSON and YAML)', () => {
    const spec = { ...valid, resource: { gpuCount: 1, region: 'r' } };
    for (const [text, format] of [[JSON.stringify(spec, null, 2), 'json'], [stringify(spec), 'yaml']] as const) {
      const missing = validateSpecText(text, format).diagnostics.find((diagnostic) => diagnostic.origin === 'required');
      assert.ok(missing, format);
      assert.match(missing.message, /"gpu"/);
      assert.equal(missing.start.line, lineOf(text, 'resource'), format);
      assert.equal(missing.end.line, missing.start.line, 'one line, not the object');
      assert.equal(text.split('\n')[missing.start.line]!.slice(missing.start.character, missing.end.character).replace(/"/g, ''), 'resource');
    }
  });

  it('a field missing at the top: one character where the file starts, never the whole file', () => {
    const { nodes: _nodes, ...spec } = valid;
    for (const [text, format] of [[JSON.stringify(spec, null, 2), 'json'], [stringify(spec), 'yaml']] as const) {
      const missing = validateSpecText(text, format).diagnostics.find((diagnostic) => diagnostic.origin === 'required');
      assert.ok(missing, format);
      assert.match(missing.message, /the file needs "nodes"/);
      assert.deepEqual([missing.start, missing.end], [{ line: 0, character: 0 }, { line: 0, character: 1 }], format);
    }
  });
});
