// Spec validation on a worker thread: the host gets the diagnostics in its own wording (the recorded
// message calls replayed through its SpecMessages), and text from the file is never taken for a
// recorded message.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ENGLISH, type SpecMessages } from '../../../src/core/specs/messages';
import { recordingMessages, replayMessage } from '../../../src/core/specs/recordedMessages';
import { validateSpecText } from '../../../src/core/specs/validate';
import { WorkerValidator } from '../../../src/core/specs/workerValidator';

/** A second "display language": every message of ENGLISH, marked. */
const MARKED = new Proxy(ENGLISH, {
  get: (target, name) => (...args: unknown[]) => `«${(target[name as keyof SpecMessages] as (...values: unknown[]) => string)(...args)}»`,
}) as SpecMessages;
Object.keys(ENGLISH).forEach((key) => Object.defineProperty(MARKED, key, { enumerable: true }));

const TYPO = ['{', '  "kind": "task",', '  "name": "t",', '  "nodes": 1,', '  "resource": { "gpu": "4090", "gpuCount": 1, "region": "r", "memoryMi": "16GB" },', '  "services": [{ "name": "web", "imgae": "x", "image": "nginx:1.27", "ports": [80] }]', '}'].join('\n');

describe('recorded spec messages', () => {
  it('replays every message through the given wording, arguments first', () => {
    const { messages, recording } = recordingMessages();
    const validation = validateSpecText(TYPO, 'json', messages);
    const replayed = validation.diagnostics.map((diagnostic) => replayMessage(diagnostic.message, recording, MARKED));
    const english = validateSpecText(TYPO, 'json').diagnostics.map((diagnostic) => diagnostic.message);
    assert.equal(replayed.length, english.length);
    assert.ok(replayed.some((message) => message.includes('did you mean "image"')));
    replayed.forEach((message, index) => assert.equal(message.replace(/[«»]/g, ''), english[index]));
  });

  it('text that looks like a token is left as it is', () => {
    const { messages, recording } = recordingMessages();
    const token = messages.theFile();
    assert.equal(replayMessage(token.replace(/#0$/, '#1'), recording, MARKED), token.replace(/#0$/, '#1'));
    assert.equal(replayMessage('\u0000feedfeedfeedfeed#0', recording, MARKED), '\u0000feedfeedfeedfeed#0');
    assert.equal(replayMessage(token, recording, MARKED), '«the file»');
  });
});

describe('the spec validation worker', () => {
  // The compiled worker beside this test's compiled sources (out/src/core/specs).
  const validator = new WorkerValidator(path.resolve(__dirname, '..', '..', '..', 'src', 'core', 'specs', 'validationWorker.js'));
  after(() => validator.dispose());

  it('answers with the diagnostics in the host wording, and what the CodeLens row reads', async () => {
    const check = await validator.validate(TYPO.replace('"nodes": 1,', '"nodes": 1, "taskId": 42,'), 'json', MARKED);
    assert.equal(check.valid, false);
    assert.equal(check.kind, 'task');
    assert.equal(check.taskId, 42);
    const typo = check.diagnostics.find((diagnostic) => diagnostic.message.includes('imgae'));
    assert.match(typo!.message, /^«Unknown field "imgae" in services\[0\]: did you mean "image"\?»$/);
    assert.equal(typo!.start.line, 5);
  });

  it('answers a hostile file with its one refusal, and then the next file as usual', async () => {
    const keys = Array.from({ length: 25_000 }, (_, index) => `"k${index}": 1`).join(', ');
    const hostile = await validator.validate(`{"kind": "task", ${keys}}`, 'json', MARKED);
    assert.equal(hostile.diagnostics.length, 1);
    assert.match(hostile.diagnostics[0]!.message, /^«This holds more than 1000 entries/);
    const valid = await validator.validate('kind: task\nname: t\nnodes: 1\nresource: {gpu: "4090", gpuCount: 1, region: r}\nservices: [{name: web, image: "nginx:1.27", ports: [80]}]\n', 'yaml', MARKED);
    assert.deepEqual(valid.diagnostics, []);
    assert.equal(valid.valid, true);
  });

  it('answers the images and region the Preheat lens offers: distinct, bounded, never a non-string', async () => {
    const services = ['"nginx:1.27"', '"nginx:1.27"', '"redis:7"', '5', `"${'x'.repeat(600)}"`].map((image, index) => `{name: s${index}, image: ${image}, ports: [80]}`).join(', ');
    const check = await validator.validate(`kind: task\nname: t\nnodes: 1\nresource: {gpu: "4090", gpuCount: 1, region: bj-jxq-t1}\nservices: [${services}]\n`, 'yaml', MARKED);
    assert.deepEqual(check.images, ['nginx:1.27', 'redis:7']);
    assert.equal(check.region, 'bj-jxq-t1');
    const none = await validator.validate('kind: task\nname: t\n', 'yaml', MARKED);
    assert.equal(none.images, undefined, 'no services: no Preheat lens');
  });
});
