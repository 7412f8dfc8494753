// Our strings in the display language: VS Code loads package.nls.zh-cn.json and
// l10n/bundle.l10n.zh-cn.json when it runs in zh-cn (scripts/vscode-web/run.mjs, phase
// integration-zh-cn, starts code-server with --locale zh-cn). In the ordinary English run the same
// checks expect English, so each run checks the language it was started in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, Views } from '../../../src/vscode/commandIds';
import type { Services } from '../../../src/vscode/extensionServices';
import { requestActivity, requestHistory } from '../../../src/vscode/requests/historyStore';
import { RequestHistoryController, historyScope, outcomeText } from '../../../src/vscode/requests/requestHistoryController';
import { targetItems } from '../../../src/vscode/requests/requestWizard';
import { wizardTitle } from '../../../src/vscode/requests/signRequestController';
import { wizardTexts } from '../../../src/vscode/views/createTaskWizard';
import { templateStep } from '../../../src/vscode/choices/jobTemplates';
import { modelStep } from '../../../src/vscode/deployments/deployModel';
import type { JobPlan } from '../../../src/core/specs/jobPlan';
import { jobExistsText, liveHeader } from '../../../src/vscode/specs/planSummary';
import { listStorage, STORAGE_LIST_STATUSES } from '../../../src/core/tasks/listing';
import { decodeKeyInput } from '../../../src/core/compute/keyInput';
import { classifyError } from '../../../src/core/errors/classify';
import { assertSecureUrl } from '../../../src/core/http/url';
import { checkToken } from '../../../src/vscode/profiles/keyValidation';
import { whatHappened } from '../../../src/vscode/errors/errorWords';
import { errorText } from '../../../src/vscode/errors/errorText';
import { ComputeApiError } from '../../../src/core/compute/errors';
import { coreText } from '../../../src/core/errors';
import { NasConnectionError } from '../../../src/core/nas/errors';
import type { PreparedRequest } from '../../../src/core/compute/api';
import type { SignComparison } from '../../../src/core/requests/signCompare';
import { computeWithSandbox } from '../compute/computeTestApi';
import { EXTENSION_ID, extensionApi } from '../extensionApi';
import { PATIENCE_MS } from '../../helpers/eventually';
import { JOB_TEMPLATES } from '../../../src/core/jobs/templates';
import { driveFlow } from '../jobs/createJobFlow';
import { ourWords } from './ourWords';
import { MachineService } from '../../../src/core/machines/machineService';
import { BILLING_TYPES } from '../../../src/core/machines/operations';

const zhCn = process.env.COMPUTE_TOOLKIT_TEST_LOCALE === 'zh-cn';
const expect = <T>(english: T, chinese: T): T => (zhCn ? chinese : english);

/** A localized manifest string: VS Code keeps the English beside the translation ({ value, original }). */
type Localized = string | { value: string; original: string };
const shown = (text: Localized | undefined): string | undefined => (typeof text === 'object' ? text.value : text);

interface ManifestCommand {
  command: string;
  title: Localized;
  category?: Localized;
}

describe(`l10n: display language (${zhCn ? 'zh-cn' : 'en'})`, () => {
  it('VS Code runs in the language the harness asked for', () => {
    assert.equal(vscode.env.language, expect('en', 'zh-cn'));
  });

  it('a command title and the chat submenu label come from package.nls.<language>.json', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { commands: ManifestCommand[]; submenus: { id: string; label: Localized }[] };
    };
    const open = manifest.contributes.commands.find((command) => command.command === Commands.chatOpen);
    assert.equal(shown(open?.title), expect('Open Chat', '打开对话'));
    assert.equal(shown(open?.category), expect('Compute', '算力'));
    assert.equal(shown(manifest.contributes.submenus[0]?.label), expect('Compute Chat', '算力对话'));
  });

  it('the status bar and a tree message come from l10n/bundle.l10n.<language>.json', async () => {
    const compute = await computeWithSandbox();
    const api = await extensionApi();
    // The sandbox profile is named "Sandbox (RSA)" whatever the language; its mode is not repeated.
    assert.doesNotMatch(api.surface.statusBarText(), /· (RSA|令牌|Token)$/);
    const original = compute.resourceFilter.current;
    try {
      await compute.resourceFilter.set({ ...original, region: 'no-such-region-anywhere' });
      await compute.refresh('resources');
      const { message, rows } = await compute.snapshot('resources');
      assert.deepEqual(rows, []);
      assert.equal(message, expect('No devices match the current filter. Use the filter button to widen it.', '没有符合当前筛选条件的设备。请使用筛选按钮放宽条件。'));
      assert.match(compute.resourceFilter.describe(), expect(/^GPU · no-such-region-anywhere$/, /^GPU · no-such-region-anywhere$/));
      await compute.resourceFilter.set({ ...original, hideSoldOut: true });
      assert.match(compute.resourceFilter.describe(), expect(/in stock$/, /有货$/));
    } finally {
      await compute.resourceFilter.set(original);
      await compute.refresh('resources');
    }
  });

  it('a storage row reads its state in the display language', async () => {
    const compute = await computeWithSandbox();
    await compute.refresh('storage');
    const { rows } = await compute.snapshot('storage');
    assert.ok(rows.length > 0);
    assert.ok(rows.some((row) => row.description?.startsWith(expect('Active · ', '已激活 · '))), rows.map((row) => row.description).join(' | '));
  });

  describe('no English in our own words', () => {
    const { check, platformValues, rowTexts, englishWords } = ourWords(zhCn);

    it('the trees (labels, descriptions, tooltips), the create wizard and the status bar', async function () {
      this.timeout(180_000);
      const compute = await computeWithSandbox();
      const api = await extensionApi();
      const profile = api.services.profiles.active;
      assert.ok(profile);
      const choices = await compute.searchRegions();
      const choice = choices.find(({ region }) => region.inventory > 0 && region.discount_price !== null);
      assert.ok(choice, 'the sandbox has a region in stock');
      const name = `l10n-${Date.now()}`;
      const taskId = await compute.createTask({ name, region: choice.region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [8000], points: 1, encrypt: false });
      try {
        const storage = await listStorage(api.services.computeClient(), { storageType: 'Juicefs', statuses: STORAGE_LIST_STATUSES });
        const data = [...platformValues(choices), ...platformValues(compute.listedTasks()), ...platformValues(storage.items), profile.label, name];
        for (const view of ['resources', 'tasks', 'storage'] as const) {
          await compute.refresh(view);
          const { rows, message } = await compute.snapshot(view, { depth: 3 });
          assert.ok(rows.length > 0, `${view}: no rows`);
          check(`the ${view} view`, [...rowTexts(rows), message ?? ''].join('\n'), [...data, ...platformValues(compute.listedTasks())]);
        }
        const wizard = wizardTexts(
          { name, choice, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: '8000', points: '1', env: '', startCommand: '', encrypt: false },
          profile,
          true,
        );
        check('the create wizard and the status bar', [...wizard, api.surface.statusBarText()].join('\n'), [...data, 'harbor.suanleme.cn/public-hub/dailyhot:1.0']);
      } finally {
        await compute.stopTask(taskId);
      }
    });

    /** A tree item's label, description and tooltip as shown. */
    const itemTexts = (item: vscode.TreeItem): string[] => {
      const label = typeof item.label === 'object' ? item.label.label : (item.label ?? '');
      const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : (item.tooltip ?? '');
      return [label, typeof item.description === 'string' ? item.description : '', tooltip];
    };

    it('the Jobs and NAS views', async function () {
      this.timeout(120_000);
      await computeWithSandbox();
      const api = await extensionApi();
      const client = api.services.computeClient();
      const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
      const region = devices.results.filter((device) => device.gpu_count === 1).flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
      assert.ok(region, 'the sandbox sells a 1-GPU device');
      const name = `l10n-job-${Date.now()}`;
      const { task_id: jobId } = await client.call('job.create', {
        task_name: name,
        // A Spot job: its tooltip has the schedule line too (issue 27 saw "Spot 调度：Scheduled").
        sub_type: 'Spot',
        resources: [{ resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark }],
        points: 1,
        job_support: { estimated_exec_sec: 60, timeout_sec: 600, parallelism: 1, mod_param: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null } },
        services: [{ service_name: 'container-01', service_image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime', resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 }, env: [], start_script: { command: ['/bin/sh', '-c'], args: ['echo l10n'] }, nas_storage_config: null }],
      });
      try {
        let rows = api.jobs.snapshot();
        for (const deadline = Date.now() + PATIENCE_MS; !rows.some((row) => row.id === jobId) && Date.now() < deadline;) {
          await vscode.commands.executeCommand(Commands.jobsRefresh);
          rows = api.jobs.snapshot();
          if (!rows.some((row) => row.id === jobId)) await new Promise((resolve) => setTimeout(resolve, 500));
        }
        assert.ok(rows.some((row) => row.id === jobId), `the Jobs view lists ${name}`);
        const jobs = await client.call('job.list', { page: 1, page_size: 100 });
        check('the Jobs view', rows.flatMap((row) => [row.label, row.description, row.tooltip]).join('\n'), platformValues(jobs));
        // The platform's status values are not removed here as they are above: the tooltip words them.
        // As Markdown (appendText writes spaces as &nbsp; and escapes punctuation): read as text.
        const tooltip = (rows.find((row) => row.id === jobId)?.tooltip ?? '').replace(/&nbsp;/g, ' ').replace(/\\(\W)/g, '$1');
        if (zhCn) {
          assert.match(tooltip, /状态：(等待中|运行中|已暂停|已结束|其他) · 执行状态：(等待中|运行中|已完成|失败|已手动停止|其他)/, tooltip);
          assert.match(tooltip, /Spot 调度：(已调度|排队中|—)/, tooltip);
          assert.doesNotMatch(tooltip, /\b(Pending|Running|Paused|End|Complete|Failed|Manual|Scheduled|Queued)\b/, tooltip);
        } else {
          assert.match(tooltip, /Status: (Pending|Running|Paused|Ended|Other) · execution: (Pending|Running|Completed|Failed|Stopped by hand|Other)/, tooltip);
          assert.match(tooltip, /Spot: (Scheduled|Queued|—)/, tooltip);
        }
      } finally {
        await client.call('job.stop', { task_id: jobId }).catch(() => undefined);
      }
      api.nas.stores.wake();
      const volumes = await api.nas.stores.volumes();
      const nasRows = await api.nas.tree.getChildren();
      assert.ok(nasRows.length > 0, 'the NAS view has rows');
      const nasText = nasRows.flatMap((row) => itemTexts(api.nas.tree.getTreeItem(row))).join('\n');
      check('the NAS view', nasText, platformValues(volumes));
      // One name for a NAS volume (docs/localization.md, Glossary).
      if (zhCn) {
        assert.ok(nasText.includes('集群存储'), nasText);
        assert.doesNotMatch(nasText, /存储卷/, nasText);
      }
    });

    it('the Machines and Image Preheat views', async function () {
      this.timeout(PATIENCE_MS * 2);
      await computeWithSandbox();
      const api = await extensionApi();
      const machines = new MachineService(api.services.computeClient());
      await api.machines.refresh();
      const view = await api.machines.snapshot();
      assert.ok(view.catalogue.length > 0, 'the Machines view lists the catalogue');
      const catalogue = await Promise.all(BILLING_TYPES.map((billing) => machines.catalogue(billing)));
      const data = [...platformValues(catalogue), ...platformValues(await machines.orders()), ...platformValues(api.machines.machines())];
      const machineTexts = [
        view.message ?? '',
        ...view.machines.flatMap((row) => [row.label, row.description]),
        ...view.orders.flatMap((row) => [row.label, row.description]),
        ...view.catalogue.flatMap((row) => [row.label, row.description, row.tooltip]),
      ];
      const image = 'registry.example.com/team/l10n:1.0';
      const name = `l10n-preheat-${Date.now()}`;
      const id = await api.preheat.create(image, ['bj-jxq-t1'], name);
      try {
        await api.preheat.refresh();
        const preheat = await api.preheat.snapshot();
        assert.ok(preheat.rows.some((row) => row.id === id), `the Image Preheat view lists ${name}`);
        // One check over both views: the preheat rows alone hold too few words of ours to fail in English.
        const preheatTexts = [preheat.message ?? '', preheat.error ?? '', ...preheat.rows.flatMap((row) => [row.label, row.description])];
        check('the Machines and Image Preheat views', [...machineTexts, ...preheatTexts].join('\n'), [...data, image, name, 'bj-jxq-t1']);
      } finally {
        await api.preheat.stop(id).catch(() => undefined);
      }
    });

    it('the Plan header words the live status', () => {
      const header = liveHeader({ taskId: 12, liveStatus: 'Running' });
      assert.equal(header, zhCn ? '线上任务 12（运行中）' : 'Live task 12 (Running)');
      assert.equal(liveHeader({ taskId: 12, liveStatus: 'End' }), zhCn ? '线上任务 12（已结束）' : 'Live task 12 (Ended)');
      // A job file's plan when its job exists: the status worded, never the platform's value.
      const exists = jobExistsText({ taskId: 34, liveStatus: 'Running' } as JobPlan);
      assert.match(exists, zhCn ? /34（运行中）/ : /job 34 \(Running\)/, exists);
      assert.doesNotMatch(jobExistsText({ taskId: 34, liveStatus: 'End' } as JobPlan), /\bEnd\b/);
    });

    it('the first steps of Create Job and Deploy a Model', () => {
      const job = templateStep();
      check('the Create Job template step', [job.title, job.placeholder, ...job.items.flatMap((item) => [item.label, item.description ?? ''])].join('\n'), job.items.map((item) => item.template.image));
      const deploy = modelStep();
      check('the Deploy a Model step', [deploy.title, deploy.placeHolder, ...deploy.items.flatMap((item) => [item.label, item.description ?? ''])].join('\n'), deploy.items.flatMap((item) => (item.model ? [item.model] : [])));
    });

    it('every step of Create Job (to its review, two completions) and of Set Spec Secret', async function () {
      this.timeout(PATIENCE_MS * 3);
      const compute = await computeWithSandbox();
      const api = await extensionApi();
      const name = `l10n-wizard-${Date.now()}`;
      // Two completions: the indexed-mode step shows too. Enter on the review is Cancel: nothing is created.
      const job = await driveFlow(api, () => vscode.commands.executeCommand(Commands.jobsCreate), 16, (step) => (step === 2 ? { type: name } : step === 7 ? { type: '2' } : undefined));
      assert.ok(job.some((s) => s.step === 9) && job.some((s) => s.step === 16), JSON.stringify(job.map((s) => s.step)));
      const data = [
        ...platformValues(await compute.searchRegions()),
        ...platformValues(await api.nas.stores.volumes()),
        ...platformValues(JOB_TEMPLATES),
        'PYTHONUNBUFFERED=1',
        '/bin/sh -c',
        api.services.profiles.active?.label ?? '',
        name,
      ];
      check('the Create Job steps', job.map((step) => `(${step.step ?? '?'}) ${step.texts.join('\n')}`).join('\n'), data);
      const secret = await driveFlow(api, () => vscode.commands.executeCommand(Commands.specSetSecret), 2, (step) => (step === 1 ? { type: name } : { type: 'l10n-secret-value' }));
      assert.equal(secret.length, 2);
      check('the Set Spec Secret steps', secret.flatMap((step) => step.texts).join('\n'), [name, '{"secret": "name"}']);
    });

    it("the core's errors: a key or an address refused, a token that cannot be sent (core/errors/messages.ts keys)", () => {
      const worded = (thrower: () => unknown): string => {
        try {
          thrower();
        } catch (error) {
          const classification = classifyError(error, { surface: 'compute' });
          assert.ok(classification, 'an error is shown');
          return whatHappened(classification);
        }
        assert.fail('nothing was thrown');
      };
      const empty = worded(() => decodeKeyInput('', 'private'));
      assert.match(empty, expect(/^The client private key is empty\. Paste the PEM private key/, /^客户端私钥为空。 ?请粘贴 PEM 私钥/));
      check('an empty private key', empty, ['BEGIN PRIVATE KEY']);
      check('a plain-http address', worded(() => assertSecureUrl('http://example.com')), ['example.com', 'http', 'localhost']);
      check('a PuTTY file for the platform key', worded(() => decodeKeyInput('PuTTY-User-Key-File-3: ssh-rsa', 'public')), ['PuTTY', 'puttygen', 'key.ppk', '-O private-openssh -o key.pem', 'PuTTYgen → Conversions → Export OpenSSH key', 'key.pem', '.ppk']);
      check('a token with a space', checkToken('abc def') ?? '', []);
    });

    it('an error inside a row, a terminal or a validation message (errors/errorText.ts): a platform refusal and a core failure', () => {
      const refused = errorText(new ComputeApiError('C001', 'no such task', 'task.detail', { kind: 'unknown', detail: '' }, 200, 'Task detail'));
      assert.match(refused, expect(/^the platform answered C001 "no such task"\.$/, /^平台返回 C001/));
      if (zhCn) assert.deepEqual(englishWords(refused, ['C001', 'no such task']), [], refused);
      check('a NAS session still provisioning', errorText(new NasConnectionError(coreText('nas.sessionPending', 7))), ['SFTP']);
    });

    it('the Sign Request and Response documents', async function () {
      this.timeout(180_000);
      await computeWithSandbox();
      const argument = { operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'GpuDevice' } };
      const signed = (await vscode.commands.executeCommand(Commands.requestSign, argument)) as { text: string } | undefined;
      assert.ok(signed, 'Sign Request returned nothing');
      const values = ['Deployment', 'GpuDevice', (await extensionApi()).services.profiles.active?.label ?? ''];
      check('the Sign Request document', signed.text, values);
      const sent = (await vscode.commands.executeCommand(Commands.requestSend, argument)) as { text: string } | undefined;
      assert.ok(sent, 'Send Signed Request returned nothing');
      check('the Response document', sent.text, values);
    });

    it('the Compare with a Failing Request document: explanations, kinds, fields and notes', async function () {
      this.timeout(180_000);
      await computeWithSandbox();
      const argument = { operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'GpuDevice' } };
      const signed = (await vscode.commands.executeCommand(Commands.requestSign, argument)) as { prepared: PreparedRequest } | undefined;
      const display = signed?.prepared.stringToSignForDisplay;
      assert.ok(display, 'Sign Request gave no string to sign');
      const [path = '', , timestamp = '', token = '', body = ''] = display.split('\n');
      const values = ['Deployment', 'GpuDevice', (await extensionApi()).services.profiles.active?.label ?? '', 'Token', 'Version', 'Sign-Str', 'sign error'];
      const pastes = {
        // CR LF separators, a numeric version, a timestamp in seconds, the body with other whitespace.
        'a string to sign with several differences': [path, '1', timestamp.slice(0, 10), token, body === '' ? '{}' : JSON.stringify(JSON.parse(body), null, 2)].join('\r\n'),
        'fields out of order': [path, timestamp, '1.0.0', token, body].join('\n'),
        'too few fields and an old timestamp': [path, '1.0.0', '1600000000000'].join('\n'),
        'headers with other names, one missing': `POST ${path}\nToken: ${token}x\nVersion: 1\nSign-Str: abc\n`,
        "the server's reply": '{"code": 4001, "msg": "sign error"}',
        'a URL-safe signature alone': `${'A'.repeat(90)}-_`,
      };
      for (const [what, pasted] of Object.entries(pastes)) {
        const result = (await vscode.commands.executeCommand(Commands.requestCompare, { pasted, request: argument })) as { comparison: SignComparison; text: string } | undefined;
        assert.ok(result, `${what}: compare returned nothing`);
        assert.ok(result.comparison.differences.length + result.comparison.notes.length > 0, `${what}: nothing found`);
        check(`the Compare document (${what})`, result.text, values);
      }
    });

    it('the Spend page', async function () {
      this.timeout(120_000);
      await computeWithSandbox();
      const api = await extensionApi();
      const data = await api.money.openSpend();
      assert.ok(data, 'the Spend page loaded');
      const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
      const tab = tabs.find((candidate) => candidate.input instanceof vscode.TabInputWebview && candidate.input.viewType.endsWith(Views.spendPanel));
      assert.ok(tab, 'the Spend page is open in a tab');
      try {
        const shown = [
          tab.label,
          ...Object.values(data.labels),
          ...Object.values(data.summary),
          ...data.chart.series.map((series) => series.label),
          ...data.chart.ticks.map((tick) => tick.label),
          ...data.chart.days,
          data.asOf,
          ...data.budget,
          ...data.tasks.map((task) => task.amount),
        ];
        check('the Spend page', [...shown, ...data.tasks.map((task) => task.type)].join('\n'), [data.profileLabel, ...data.tasks.map((task) => task.name)]);
      } finally {
        await vscode.window.tabGroups.close(tab);
      }
    });

    it('the Sign Request pickers and the Request History picker', async function () {
      this.timeout(120_000);
      await computeWithSandbox();
      const api = await extensionApi();
      const profile = api.services.profiles.active;
      assert.ok(profile);
      const client = api.services.computeClient();
      const titles = [
        wizardTitle(expect('Sign Request', '签名请求'), profile),
        wizardTitle(expect('Send Signed Request', '发送签名请求'), { ...profile, environment: 'prod', mode: profile.mode === 'rsa' ? 'token' : 'rsa' }),
      ];
      const targets = targetItems(client.operations).flatMap((item) => [item.label, item.description ?? '', item.detail ?? '']);
      check('the Sign Request pickers', [...titles, ...targets].join('\n'), [profile.label, ...client.operations.map((spec) => spec.path)]);

      const argument = { operation: 'resource.search', params: { task_type: 'Deployment', device_type: 'GpuDevice' } };
      assert.ok(await vscode.commands.executeCommand(Commands.requestSend, argument), 'Send Signed Request returned nothing');
      // The same services object activate() built (the API types it by its interface).
      const services = api.services as Services;
      const entries = requestHistory(services).list(profile.id);
      const activity = requestActivity(services).list(profile.id);
      assert.ok(entries.length > 0, 'the history has the request just sent');
      assert.ok(activity.length > 0, 'the views\' own requests are recorded');
      const rows = new RequestHistoryController(services).items(entries, activity);
      const recorded = [...entries, ...activity].flatMap((entry) => [entry.pathWithQuery, ...(outcomeText(entry.outcome) === entry.outcome ? [entry.outcome] : [])]);
      check(
        'the Request History picker',
        [historyScope(), ...rows.flatMap((row) => [row.label, row.description ?? '', row.detail ?? ''])].join('\n'),
        [...recorded, ...activity.flatMap((entry) => [entry.operation, entry.sourceName ?? ''])],
      );
    });
  });
});
