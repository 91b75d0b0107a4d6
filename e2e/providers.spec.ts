/**
 * Model providers against the real core: adding an OpenAI-compatible server whose key comes from a key file (browser
 * mode keeps no keys), "Test connection" before and after adding, choosing it as the default, an answer that says
 * which provider wrote it, and the one-time notice when a knowledge base's passages would leave the machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Settings } from '../shared/settings';
import { startMockOpenAi, type MockOpenAi } from '../electron/core/testing/openai-mock';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, closeSettings, createKb, invokeCore, lastAnswer, openSettings, showScreen, snap, waitTurnEnded } from './helpers';

const KEY = 'sk-e2e-provider-5150';
let server: MockOpenAi;
let keyFile: string;
test.beforeEach(async () => {
  server = await startMockOpenAi({ apiKey: KEY });
  keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-key-')), 'lm.key');
  fs.writeFileSync(keyFile, `${KEY}\n`);
  fs.chmodSync(keyFile, 0o644);
});
test.afterEach(async () => {
  await server.close();
  fs.rmSync(path.dirname(keyFile), { recursive: true, force: true });
});

test('a provider is added with Test connection, answers as the default, and a hosted one is announced once', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  const dialog = await openSettings(page);
  const section = dialog.getByRole('region', { name: 'Model servers' });
  const form = section.getByRole('group', { name: 'Add a provider' });

  await form.getByLabel('Name').fill('LM Box');
  await form.getByLabel('Base URL').fill(server.url);
  // Browser mode keeps no keys: the choices are none, the environment, or a key file.
  await expect(form.getByLabel('API key from').locator('option')).toHaveText(['None', 'SIFT_API_KEY / OPENAI_API_KEY', 'Key file (chmod 600)']);
  await form.getByLabel('API key from').selectOption({ label: 'Key file (chmod 600)' });
  await form.getByLabel('Key file (chmod 600)').fill(keyFile);
  await form.getByLabel('Default model').fill('qwen3:4b');
  await form.getByLabel('Context window (tokens)').fill('16384');
  // The wait for an answer to start (issue #27 item 12): whole seconds 1–600, said at once when not.
  const wait = form.getByLabel('Wait for an answer to start (seconds)');
  await wait.fill('0');
  await expect(form.getByRole('alert')).toHaveText('Enter whole seconds from 1 to 600.');
  await expect(form.getByRole('button', { name: 'Add provider' })).toBeDisabled();
  await form.getByRole('alert').scrollIntoViewIfNeeded();
  await snap(page, testInfo, '89-provider-wait-invalid');
  await wait.fill('120');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: 'Test before adding' }).click();
  await expect(form.getByRole('status')).toHaveText(`The key file ${keyFile} can be read by others (mode 644); Sift refuses it. Make it yours only: chmod 600 ${keyFile}`);
  fs.chmodSync(keyFile, 0o600);
  await form.getByRole('button', { name: 'Test before adding' }).click();
  await expect(form.getByRole('status')).toHaveText('1 model: qwen3:4b');
  await form.getByRole('button', { name: 'Add provider' }).click();

  const row = section.getByRole('list', { name: 'Your model servers' }).getByRole('listitem', { name: 'LM Box' });
  await expect(row).toContainText(server.url);
  await expect(row).toContainText(`API key: ${keyFile} · model qwen3:4b · waits up to 120 s for an answer to start`);
  await expect(row.getByText('Off this machine')).toHaveCount(0);
  await row.getByRole('button', { name: 'Test connection' }).click();
  await expect(row.getByRole('status')).toHaveText('1 model: qwen3:4b');
  await section.getByLabel('Answers come from').selectOption('LM Box');
  await snap(page, testInfo, '90-providers');
  const stored = await invokeCore<Settings>(served.url, 'settings.get');
  expect(stored).toMatchObject({ defaultProvider: 'LM Box', providers: [{ name: 'LM Box', kind: 'openai', apiKeyRef: `file:${keyFile}`, contextLength: 16384, connectTimeoutMs: 120_000 }] });
  expect(JSON.stringify(stored)).not.toContain(KEY);
  await closeSettings(page);

  // The answer comes from the new default, with its key, and says so.
  await showScreen(page, 'Chat');
  server.onChat({ chunks: [{ content: 'The gateway gives up after **30 seconds** [1].' }] });
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  await expect(lastAnswer(page)).toContainText('Answered by LM Box · qwen3:4b');
  expect(server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.authorization)).toEqual([`Bearer ${KEY}`]);
  await expect(page.getByRole('alert', { name: 'Passages leave this machine' })).toHaveCount(0);

  // A hosted provider chosen for this knowledge base: said once, above the conversation.
  const again = await openSettings(page);
  const addForm = again.getByRole('group', { name: 'Add a provider' });
  await addForm.getByLabel('Name').fill('Cloud');
  await addForm.getByLabel('Base URL').fill('https://api.example.com/v1');
  await expect(addForm.getByRole('note')).toContainText('This address is not on this machine');
  await addForm.getByRole('button', { name: 'Add provider' }).click();
  await expect(again.getByRole('listitem', { name: 'Cloud' }).getByText('Off this machine')).toBeVisible();
  await again.getByLabel('Answers in “Library” come from').selectOption('Cloud');
  await closeSettings(page);
  const notice = page.getByRole('alert', { name: 'Passages leave this machine' });
  await expect(notice).toContainText('answered by Cloud at https://api.example.com/v1');
  await snap(page, testInfo, '91-hosted-notice');
  await notice.getByRole('button', { name: 'Understood' }).click();
  await expect(notice).toHaveCount(0);
  const kbId = (await invokeCore<{ id: string; name: string }[]>(served.url, 'kb.list')).find((k) => k.name === 'Library')!.id;
  expect((await invokeCore<Settings>(served.url, 'settings.get')).hostedNoticeSeen).toEqual([kbId]);
  await page.reload();
  await showScreen(page, 'Chat');
  await expect(page.getByRole('alert', { name: 'Passages leave this machine' })).toHaveCount(0);
});

test('the wait for an answer to start, in Chinese (issue #27 item 12)', async ({ page, served }, testInfo) => {
  const provider = { name: 'LM Box', kind: 'openai', baseUrl: server.url, apiKeyRef: null, defaultModel: 'qwen3:4b', connectTimeoutMs: 90_000 };
  await invokeCore(served.url, 'settings.set', { patch: { language: 'zh-CN', providers: [provider] } });
  await page.goto(served.url);
  const dialog = await openSettings(page);
  const section = dialog.getByRole('region', { name: '模型服务' });
  const row = section.getByRole('listitem', { name: 'LM Box' });
  await expect(row).toContainText('最多等待 90 秒开始回答');
  await row.scrollIntoViewIfNeeded();
  await snap(page, testInfo, '92-provider-row-zh');
  const form = section.getByRole('group', { name: '添加提供方' });
  await form.getByLabel('名称').fill('Slow box');
  await form.getByLabel('等待开始回答（秒）').fill('0');
  await expect(form.getByRole('alert')).toHaveText('请输入 1 到 600 之间的整数秒。');
  await form.getByRole('alert').scrollIntoViewIfNeeded();
  await snap(page, testInfo, '92-provider-wait-zh');
  await form.getByLabel('等待开始回答（秒）').fill('300');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(form.getByText('首次请求时才加载模型的服务可能需要更久。留空为 10 秒。1–600。')).toBeVisible();
  await snap(page, testInfo, '93-provider-wait-zh-valid');
});
