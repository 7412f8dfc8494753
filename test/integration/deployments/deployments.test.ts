// A user's own model, inside a real VS Code against the sandbox (docs/deployments.md): Deploy a Model (the
// command's non-UI path) → followed until ready → listed by vscode.lm.selectChatModels and answering a
// streamed request → picked in Compute Chat, whose reply carries its approximate cost → warned with Keep
// Running after the set minutes, idle pause a grace period later (the registry's clock moved, nothing waited) → gone from VS Code's picker and marked
// paused in the chat's → Recover follows it until it answers again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { connectedApi, until, VENDOR } from '../ai/aiTestApi';
import { sandboxUrl } from '../sandboxInfo';

const MODEL = 'Qwen/Qwen3-8B';
const ORDER = ['waiting', 'pulling', 'loading', 'ready'];

async function lmModels(): Promise<vscode.LanguageModelChat[]> {
  return vscode.lm.selectChatModels({ vendor: VENDOR });
}

async function setLoadMs(loadMs: number): Promise<void> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/deployments/load-ms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ loadMs }) });
  assert.equal(response.status, 200);
}

/**
 * Settles `work` while driving the task store's polls (readiness follows the store, which on its own
 * polls no faster than the platform's 10 s floor): each look is a whole poll, awaited.
 */
async function pollingWhile<T>(api: ExtensionApi, work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  while (!settled) {
    await api.money.wakeWatcher();
    await Promise.race([done.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 200))]);
  }
  return done;
}

describe('deployments: deploy a model, use it in both pickers, idle pause', () => {
  let api: ExtensionApi;
  let taskId: number | undefined;
  let idleTimer: vscode.Disposable | undefined;

  before(async () => {
    api = await connectedApi();
    // The test owns the idle clock: it moves the registry's time and runs the checks itself; the 20 s
    // timer would otherwise pause the recovered deployment again before the assertions.
    idleTimer = api.deployments.idlePause.holdTimer();
    await setLoadMs(1500);
  });

  after(async () => {
    idleTimer?.dispose();
    api.deployments.registry.now = () => Date.now();
    if (taskId !== undefined) await api.compute.stopTask(taskId).catch(() => undefined);
    await setLoadMs(6000);
  });

  it('deploys, becomes ready, answers through vscode.lm and in Compute Chat with its cost, and is paused when idle', async function () {
    this.timeout(180_000);
    const beforeDeploy = api.money.notificationCount();
    const deployed = await api.deployments.deploy({ model: MODEL, contextTokens: 8192, precision: 'bf16', idleMinutes: 5 });
    taskId = deployed.taskId;
    assert.ok(deployed.pointsPerSecond !== undefined && deployed.pointsPerSecond > 0, 'the GPU it runs on has a price');

    const { result, phases } = await pollingWhile(api, api.deployments.waitReady(taskId, { firstDelayMs: 100, maxDelayMs: 400 }));
    assert.equal(result.phase, 'ready', `phases: ${phases.join(' → ')}`);
    assert.equal(phases.at(-1), 'ready');
    // The API path says how long the start took, as the wizard does (once, with the preheat offer).
    const took = api.money.notificationsSince(beforeDeploy).filter((shown) => shown.kind === 'preheatOffer');
    assert.equal(took.length, 1, JSON.stringify(took.map((shown) => shown.message)));
    assert.match(took[0]?.message ?? '', /^Qwen\/Qwen3-8B started in \d/);
    const ranks = phases.map((phase) => ORDER.indexOf(phase));
    assert.ok(ranks.every((rank, index) => rank >= 0 && (index === 0 || rank > (ranks[index - 1] ?? -1))), `phases in order: ${phases.join(' → ')}`);

    const id = `deployment:${taskId}/${MODEL}`;
    // Ready: the chat preselects it for the next conversation (and an empty active one).
    assert.equal(api.chat.newConversation().settings.model, id, 'a new conversation starts with the model just deployed');
    // VS Code's model picker: the deployed model beside the platform's, named by model and task.
    const listed = await until(lmModels, (models) => models.some((model) => model.id === id), 'the deployed model in vscode.lm');
    const chatModel = listed.find((model) => model.id === id) as vscode.LanguageModelChat;
    assert.equal(chatModel.name, 'Qwen3-8B · deploy-qwen3-8b', 'the row names its task, so two deployments of one model differ');
    assert.ok(listed.some((model) => model.id === 'sandbox/echo'), 'the hosted models are still listed');
    assert.equal(chatModel.maxInputTokens, 6144, 'three quarters of --max-model-len');
    const response = await chatModel.sendRequest([vscode.LanguageModelChatMessage.User('hello from VS Code')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    let fragments = 0;
    for await (const fragment of response.text) {
      text += fragment;
      fragments++;
    }
    assert.match(text, /Sandbox reply from `Qwen\/Qwen3-8B`/);
    assert.ok(fragments > 1, 'streamed');

    // Compute Chat: listed under the deployments, picked, answered with a cost line.
    const option = await until(() => api.chat.snapshot().deployed, (options) => options.some((candidate) => candidate.id === id && candidate.available), 'the deployed model in the chat picker');
    assert.match(option.find((candidate) => candidate.id === id)?.label ?? '', /deploy-qwen3-8b · ¥[\d.]+\/h/);
    assert.equal(option.find((candidate) => candidate.id === id)?.name, 'Qwen3-8B · deploy-qwen3-8b', 'the transcript heads its replies with this, not the id');
    await api.chat.open();
    api.chat.newConversation();
    api.chat.selectModel(id);
    const view = await api.chat.send('hello from Compute Chat');
    const reply = view.turns.at(-1);
    assert.equal(reply?.status, 'complete', JSON.stringify(reply?.error));
    assert.match(reply?.content ?? '', /Sandbox reply from `Qwen\/Qwen3-8B`/);
    assert.ok(reply?.cost, 'the reply carries its cost');
    assert.ok(reply.cost.yuan > 0 && reply.cost.seconds > 0);
    assert.ok((reply.cost.tokens ?? 0) > 0, 'with the tokens the server reported');
    assert.equal(reply.cost.tokens, reply.usage?.completion);
    assert.equal(reply.cost.deployment, 'deploy-qwen3-8b');

    // Idle pause: move the registry's clock past the 5 minutes since that request (the test drives every
    // check; the timer is held). The one idle pause: a warning with Keep Running first, the pause a grace
    // period later only if nobody answered and nothing is active on the task.
    const idlePause = api.deployments.idlePause;
    const lastRequest = api.deployments.registry.idle.lastRequestAt(taskId);
    assert.ok(lastRequest !== undefined);
    const at = (minutes: number): void => {
      api.deployments.registry.now = () => lastRequest + minutes * 60_000;
    };
    const actions = (): string[] => idlePause.events.filter((event) => event.taskId === taskId).map((event) => event.action);
    at(4);
    await idlePause.check();
    assert.deepEqual(actions(), [], 'not before its minutes');
    assert.match(idlePause.text, /1 model ¥[\d.]+\/h · idle 4 min/);
    const mark = api.money.notificationCount();
    at(5);
    await idlePause.check();
    assert.deepEqual(actions(), ['warned'], 'warned first');
    assert.equal(idlePause.paused.length, 0, 'not paused by the warning');
    const warning = api.money.notificationsSince(mark).find((shown) => shown.kind === 'idlePause');
    assert.ok(warning, 'the warning was shown');
    assert.equal(warning.severity, 'warning');
    assert.deepEqual(warning.actions, ['Keep Running', 'Pause Now']);
    assert.match(warning.message, /deploy-qwen3-8b.*pauses in 2 minutes/);
    // Keep Running: its idle time counts again from now, so the grace's end pauses nothing.
    await api.money.choose(warning, 'Keep Running');
    assert.equal(api.deployments.registry.idle.lastRequestAt(taskId), lastRequest + 5 * 60_000);
    at(7);
    await idlePause.check();
    assert.deepEqual(actions(), ['warned', 'kept'], 'Keep Running kept it');
    assert.equal(idlePause.paused.length, 0);
    // Idle again for its minutes: warned again; at the grace's end the model is answering (the one
    // activity rule) → held, not paused.
    at(10);
    await idlePause.check();
    assert.deepEqual(actions(), ['warned', 'kept', 'warned']);
    at(12);
    const profileId = api.services.profiles.active?.id ?? '';
    const answering = api.money.activity.add(() => [{ kind: 'model-answering', profileId, taskId: taskId as number, label: 'a long request' }]);
    try {
      await idlePause.check();
      assert.deepEqual(actions(), ['warned', 'kept', 'warned', 'held'], 'held while the model answers');
      assert.equal(idlePause.paused.length, 0);
    } finally {
      answering();
    }
    // Warned once more, and no answer: paused at the grace's end.
    at(17);
    await idlePause.check();
    at(19);
    await idlePause.check();
    assert.deepEqual(actions(), ['warned', 'kept', 'warned', 'held', 'warned', 'paused']);
    assert.deepEqual(idlePause.paused.map((event) => [event.taskId, event.minutes]), [[taskId, 5]]);
    const detail = await api.services.computeClient().call('task.detail', { task_id: taskId });
    assert.equal(detail.status, 'Paused');

    await until(lmModels, (models) => !models.some((model) => model.id === id), 'the paused deployment gone from vscode.lm');
    const paused = api.chat.snapshot().deployed.find((candidate) => candidate.id === id);
    assert.equal(paused?.available, false);
    assert.equal(paused?.reason, 'paused');
    const refused = await api.chat.send('still there?');
    assert.equal(refused.turns.at(-1)?.status, 'error');
    assert.match(refused.turns.at(-1)?.error?.message ?? '', /cannot answer: it is paused/);

    // Recover (the idle-pause notice's action) runs the task again and follows its readiness anew, through
    // the task store and a probe of the URL: the model is back in VS Code's picker once it answers.
    const pausedDeployment = api.deployments.registry.get(taskId);
    assert.ok(pausedDeployment);
    await pollingWhile(api, api.deployments.idlePause.recover(pausedDeployment));
    assert.deepEqual(api.deployments.idlePause.recovered, [taskId]);
    // Recover resolves once it answered; a task list fetched while it was still Paused may be discovered
    // after that, and the newest list (Running) after it: wait for the registry to settle on ready.
    await until(() => api.deployments.registry.get(taskId as number)?.state, (state) => state === 'ready', 'followed until it answered again');
    assert.equal(api.deployments.registry.idle.lastRequestAt(taskId), api.deployments.registry.now(), 'its idle time counts from the recovery');
    await api.deployments.idlePause.check();
    assert.equal(api.deployments.idlePause.paused.length, 1, 'not paused again at once after Recover');
    await until(lmModels, (models) => models.some((model) => model.id === id), 'the recovered deployment back in vscode.lm');
  });
});
