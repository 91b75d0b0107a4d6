/**
 * The chat thread as a conversation grows: the view follows the latest turn and never jumps, a running
 * answer survives a reload and shows in every tab, retrieval steps sit above the answer they belong to,
 * a megabyte-long answer stays responsive, and a lost host is said so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, invokeCore, lastAnswer, showScreen, waitTurnEnded } from './helpers';
import { citingReply, rewriteReply, slowReply, tokens } from './replies';
import { startSift } from './sift-process';

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
});

/** The thread's scroll position (the scrolling element holds the conversation's messages). */
function scrollTop(page: Page): Promise<number> {
  return page.locator('.thread').evaluate((el) => el.scrollTop);
}

/** The list of conversations. */
function conversations(page: Page) {
  return page.getByRole('navigation', { name: 'Conversations' });
}

/** Ask a first question whose answer is far taller than the window, and wait for it. */
async function longHistory(page: Page, served: { ollama: { onChat(r: unknown): void } }): Promise<void> {
  const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of an earlier answer [1].`);
  served.ollama.onChat({ chunks: tokens(paragraphs.join('\n\n')) });
  await ask(page, 'Tell me everything about the gateway.');
  await waitTurnEnded(page, /^Done$/);
}

test('a new turn scrolls into view and is followed; scrolling up stops following; Stop never moves the view', async ({ page, served }) => {
  await longHistory(page, served);
  await conversations(page).getByRole('button', { name: 'New conversation' }).click();
  await conversations(page).getByRole('button', { name: /^Tell me everything/ }).click();
  await expect(lastAnswer(page)).toContainText('Paragraph 60');

  served.ollama.onChat(rewriteReply('What is the retry policy?'));
  served.ollama.onChat(slowReply(150));
  await ask(page, 'And the retry policy?');
  await expect(page.getByRole('article', { name: 'Your message' }).last()).toHaveText('And the retry policy?');
  await expect(page.getByRole('article', { name: 'Your message' }).last()).toBeInViewport();
  await expect(lastAnswer(page)).toContainText('Sentence 6 ', { timeout: 15_000 });
  await expect(lastAnswer(page).getByText(/Sentence \d+ of a long/).last()).toBeInViewport();

  // Scrolled up to read: the stream no longer moves the view, and a way back is offered.
  await page.locator('.thread').hover();
  await page.mouse.wheel(0, -1500);
  const jump = page.getByRole('button', { name: /Jump to latest/ });
  await expect(jump).toBeVisible();
  const reading = await scrollTop(page);
  await expect(lastAnswer(page)).toContainText('Sentence 12 ', { timeout: 15_000 });
  expect(await scrollTop(page)).toBe(reading);

  await page.getByRole('button', { name: 'Stop answer' }).click();
  await waitTurnEnded(page, /^Stopped$/);
  await page.waitForTimeout(300);
  expect(await scrollTop(page)).toBe(reading);

  // Back at the latest, a finished answer shows its end and its references.
  await jump.click();
  await expect(jump).toHaveCount(0);
  served.ollama.onChat(rewriteReply('How long until the gateway times out?'));
  served.ollama.onChat(citingReply(20));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  await expect(lastAnswer(page).getByRole('region', { name: 'References' })).toBeInViewport();
});

test('a running answer survives a reload and streams in a second tab, which cannot post into it', async ({ page, served, context }) => {
  test.setTimeout(120_000);
  served.ollama.onChat(slowReply(150));
  await ask(page, 'What is the retry policy?');
  await expect(lastAnswer(page)).toContainText('Sentence 3 ');

  // A second tab shows the same conversation, mid-answer, and follows it.
  const other = await context.newPage();
  await other.goto(served.url);
  await other.getByRole('heading', { level: 1, name: 'Library' }).click();
  await showScreen(other, 'Chat');
  await conversations(other).getByRole('button', { name: /^What is the retry/ }).click();
  await expect(other.getByRole('article', { name: 'Your message' })).toHaveText('What is the retry policy?');
  await expect(lastAnswer(other)).toContainText('Sentence 1 of a long answer');
  await expect(lastAnswer(other)).toContainText('Sentence 8 ', { timeout: 15_000 });
  await expect(other.getByRole('button', { name: 'Stop answer' })).toBeVisible();

  // Reloading mid-answer reopens the conversation with the answer so far, still streaming.
  await page.reload();
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(list.getByRole('button', { name: /^What is the retry/ })).toHaveAttribute('aria-current', 'true');
  await expect(lastAnswer(page)).toContainText('Sentence 1 of a long answer');
  await expect(page.getByRole('button', { name: 'Stop answer' })).toBeVisible();
  await expect(lastAnswer(page)).toContainText('Sentence 14 ', { timeout: 15_000 });

  await waitTurnEnded(page, /^Done$/);
  await waitTurnEnded(other, /^Done$/);
  await expect(lastAnswer(page)).toContainText('Sentence 40 of a long answer');
  await expect(lastAnswer(other)).toContainText('Sentence 40 of a long answer');
  await expect(page.getByRole('article', { name: 'Your message' })).toHaveCount(1);
  await expect(other.getByRole('article', { name: 'Your message' })).toHaveCount(1);

  // A question from the other tab shows here too, as it is answered.
  served.ollama.onChat(slowReply(20));
  await ask(other, 'And the timeout?');
  await expect(page.getByRole('article', { name: 'Your message' }).last()).toHaveText('And the timeout?');
  await expect(page.getByRole('button', { name: 'Stop answer' })).toBeVisible();
  await waitTurnEnded(page, /^Done$/);
  await expect(page.getByRole('article', { name: 'Answer' })).toHaveCount(2);
  await other.close();
});

test('retrieval steps show above the answer being written, per conversation, folded when done', async ({ page, served }) => {
  test.setTimeout(120_000);
  served.ollama.onChat(slowReply(100));
  await ask(page, 'What is the retry policy?');
  const thread = page.getByRole('region', { name: 'Conversation' });
  const steps = thread.getByRole('list', { name: 'Turn progress' });
  await expect(steps.getByRole('listitem')).toHaveText(['Searching…', /^Found \d+ pages?$/, 'Answering…']);
  // Steps come before the answer they belong to.
  const stepsBox = (await steps.boundingBox())!;
  const answerBox = (await lastAnswer(page).boundingBox())!;
  expect(stepsBox.y).toBeLessThan(answerBox.y);

  // Another conversation shows none of this turn's steps.
  await conversations(page).getByRole('button', { name: 'New conversation' }).click();
  await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Turn progress' })).toHaveCount(0);
  await conversations(page).getByRole('button', { name: /^What is the retry/ }).click();
  await expect(steps.getByRole('listitem').last()).toHaveText('Answering…');
  await waitTurnEnded(page, /^Done$/);
  await expect(steps.getByRole('listitem')).toHaveText([/^Found \d+ pages?$/, 'Done']);

  // Asking at once after opening a conversation (before it has loaded) still shows the new turn.
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await list.getByRole('button', { name: 'New conversation' }).click();
  served.ollama.onChat(rewriteReply('What is the timeout of the retry policy?'));
  served.ollama.onChat(slowReply(60));
  await list.getByRole('button', { name: /^What is the retry/ }).click();
  await ask(page, 'And the timeout?');
  await expect(steps.last().getByRole('listitem').last()).toHaveText('Answering…');
  await expect(page.getByRole('button', { name: 'Stop answer' })).toBeVisible();
  await waitTurnEnded(page, /^Done$/);
  await expect(page.getByRole('article', { name: 'Answer' })).toHaveCount(2);
});

test('Stop registers at once during a half-megabyte streamed answer', async ({ page, served }) => {
  // The core cuts an answer at 8 characters per token of maxAnswerTokens (at most 65536): 512 KB.
  await invokeCore(served.url, 'settings.set', { patch: { maxAnswerTokens: 65536 } });
  const paragraph = 'The gateway retries an upstream call once, after a pause, and logs the reset [1]. '.repeat(12);
  const text = Array.from({ length: 600 }, (_, i) => `${i + 1}. ${paragraph}`).join('\n\n');
  const chunks = text.match(/[\s\S]{1,200}/g)!.map((content) => ({ content }));
  served.ollama.onChat({ chunks, delayMs: 4 });
  await ask(page, 'Tell me everything about retries.');
  await expect(lastAnswer(page)).toContainText('1. The gateway retries');
  await page.waitForTimeout(6000);
  const stop = page.getByRole('button', { name: 'Stop answer' });
  await expect(stop).toBeVisible();
  const clicked = Date.now();
  await stop.click();
  await waitTurnEnded(page, /^Stopped$/);
  const took = Date.now() - clicked;
  const shown = await lastAnswer(page).evaluate((el) => el.textContent!.length);
  console.log(`stop registered after ${took} ms with ${shown} characters shown`);
  expect(shown).toBeGreaterThan(100_000);
  expect(took).toBeLessThan(3000);
});

test('a lost host is said so, the answer stops showing as answering, and the thread reloads when it is back', async ({ page, served, modelDir }) => {
  // A host of this test's own, stopped and started again on the same port, data and token.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-restart-'));
  const options = { modelDir, ollamaUrl: served.ollama.url, dataDir, env: { SIFT_HOST_TOKEN: `restart-token-${Date.now()}-kept` } };
  let host = await startSift(options);
  try {
    await page.goto(host.url);
    await createKb(page, 'Restarted');
    await addFolderAndIndex(page, served.folder);
    await showScreen(page, 'Chat');
    served.ollama.onChat(slowReply(150));
    await ask(page, 'What is the retry policy?');
    await expect(lastAnswer(page)).toContainText('Sentence 3 ');

    await host.stop();
    const notice = page.getByRole('alert').filter({ hasText: 'Lost the connection to Sift' });
    await expect(notice).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'Stop answer' })).toHaveCount(0);
    await expect(page.getByText('Answering…')).toHaveCount(0);
    await expect(lastAnswer(page)).toContainText('Sentence 3 ');

    host = await startSift({ ...options, port: Number(new URL(host.url).port) });
    await expect(notice).toHaveCount(0, { timeout: 15_000 });
    // The host stored the partial answer as it shut down; the reloaded thread shows it cut off, never "Stopped"
    // (nobody pressed Stop), with the steps it had.
    await expect(lastAnswer(page)).toContainText('Sentence 1 of a long answer');
    // The old thread stays on screen until the reload arrives, so wait for the stored turn, not for the text.
    await expect(lastAnswer(page).getByText(/^Cut off: Sift was closed or restarted/)).toBeVisible({ timeout: 15_000 });
    await expect(lastAnswer(page).getByText('Stopped. The partial answer is kept.')).toHaveCount(0);
    await waitTurnEnded(page, /^Cut off$/);
    await expect(page.getByRole('button', { name: 'Stop answer' })).toHaveCount(0);
  } finally {
    await host.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
