/**
 * Chat against the real core and a scripted mock Ollama: streaming, retrieval steps in the status
 * bar, citation chips that open the exact passage, @-mentions, stopping, isolation between
 * knowledge bases, and answering without Ollama.
 */
import { PAGES } from './corpus';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';
import { citingReply, rewriteReply, slowReply } from './replies';

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
});

test('an answer streams with the retrieval steps in order; [1] opens its passage highlighted', async ({ page, served }, testInfo) => {
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
  await snap(page, testInfo, '10-no-conversations');
  served.ollama.onChat(citingReply(80));
  await ask(page, 'How long until the gateway times out?');

  // While it streams: the first words are there, the end is not, and Stop is offered.
  const answer = lastAnswer(page);
  await expect(answer).toContainText('The gateway gives up');
  await expect(answer).not.toContainText('See also');
  await expect(page.getByRole('button', { name: 'Stop answer' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Turn progress' }).getByRole('listitem').last()).toHaveText('Answering…');
  await snap(page, testInfo, '11-streaming');

  await waitTurnEnded(page, /^Done$/);
  // Done, the steps fold to one line above the answer; they open to the whole list.
  const steps = page.getByRole('list', { name: 'Turn progress' });
  await expect(steps.getByRole('listitem')).toHaveText([/^Found \d+ pages?$/, 'Done']);
  await page.getByRole('button', { name: 'Show steps' }).click();
  await expect(steps.getByRole('listitem')).toHaveText(['Searching…', /^Found \d+ pages?$/, 'Answering…', 'Done']);
  await expect(answer.locator('strong')).toHaveText('30 seconds'); // Markdown, not raw asterisks
  await expect(answer.getByRole('button', { name: /^Citation 1: / })).toHaveCount(2);
  await expect(answer.getByRole('button', { name: /^Citation 2: / })).toHaveCount(1);
  // [9] names no passage: shown, but not a link or button.
  await expect(answer.getByRole('button', { name: /Citation 9/ })).toHaveCount(0);
  await expect(answer.getByText('[9]')).toBeVisible();
  await expect(answer.getByText('(not a valid citation)')).toBeAttached();
  const references = answer.getByRole('region', { name: 'References' });
  await expect(references.getByRole('listitem')).toHaveCount(2);
  await answer.getByText('Why these passages were found').click();
  await expect(answer.getByRole('columnheader', { name: 'RRF score' })).toBeVisible();

  // Hover shows a preview of the passage; click opens the page with exactly that passage highlighted.
  const chip = answer.getByRole('button', { name: /^Citation 1: / }).first();
  await chip.hover();
  const preview = page.getByRole('tooltip');
  await expect(preview).toBeVisible();
  const title = (await chip.getAttribute('aria-label'))!.replace(/^Citation 1: /, '');
  await expect(preview).toContainText(title);
  await snap(page, testInfo, '12-citation-preview');
  await chip.click();
  const reader = page.getByRole('complementary', { name: 'Source' });
  await expect(reader.getByRole('heading', { level: 2, name: title })).toBeVisible();
  const mark = reader.getByLabel('Page text').locator('mark');
  await expect(mark.first()).toBeInViewport();
  const quote = (await references.getByRole('listitem').first().locator('blockquote').textContent())!;
  expect((await mark.allTextContents()).join('')).toBe(quote);
  await snap(page, testInfo, '13-source-highlighted');
  await reader.getByRole('button', { name: 'Close page' }).click();
  await expect(reader).toHaveCount(0);

  // Conversations: listed, renamed, a new one started, deleted with confirmation.
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(list.getByRole('button', { name: /^How long until the gateway/ })).toHaveAttribute('aria-current', 'true');
  await list.getByRole('button', { name: /Rename conversation/ }).click();
  await list.getByLabel('Conversation title').fill('网关超时 timeouts');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('button', { name: /^网关超时 timeouts/ })).toBeVisible();
  await list.getByRole('button', { name: 'New conversation' }).click();
  await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
  await list.getByRole('button', { name: /^网关超时 timeouts/ }).click();
  await expect(lastAnswer(page)).toContainText('The gateway gives up');
  await list.getByRole('button', { name: 'Delete conversation 网关超时 timeouts' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
});

test('an @-mention inserts a page reference chip and that page is cited first', async ({ page, served }, testInfo) => {
  served.ollama.onChat(citingReply(10));
  const field = page.getByLabel('Question');
  await field.click();
  await field.pressSequentially('How do I prepare? @部署');
  const options = page.getByRole('listbox', { name: 'Pages to reference' }).getByRole('option');
  await expect(options.first()).toContainText('部署指南');
  // Esc closes the list for this mention; typing a new @ opens it again.
  await field.press('Escape');
  await expect(options).toHaveCount(0);
  await field.pressSequentially('x');
  await expect(options).toHaveCount(0);
  await field.pressSequentially(' @部署');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await snap(page, testInfo, '20-mention-list');
  // Fuzzy, keyboard-driven: "gw" finds the gateway page by its path; ↓ ↑ move, Enter inserts.
  await field.fill('Compare with @gw');
  await expect(options.first()).toContainText('API Gateway');
  await field.press('Escape');
  await field.fill('');
  await field.pressSequentially('How do I prepare? @部署');
  await field.press('ArrowDown');
  await field.press('ArrowUp');
  await field.press('Enter');
  await expect(field).toHaveValue('How do I prepare? @部署指南 ');
  await field.pressSequentially('please');
  await snap(page, testInfo, '21-mention-inserted');
  await field.press('Enter');

  const question = page.getByRole('article', { name: 'Your message' }).last();
  await expect(question.getByRole('button', { name: '@部署指南' })).toBeVisible();
  await waitTurnEnded(page, /^Done$/);
  const first = lastAnswer(page).getByRole('region', { name: 'References' }).getByRole('listitem').first();
  await expect(first).toContainText(PAGES.deploy);
  await lastAnswer(page).getByText('Why these passages were found').click();
  await expect(lastAnswer(page).getByRole('row').nth(1)).toContainText('you referenced it');
  const sent = served.ollama.requests.filter((r) => r.path === '/api/chat').pop()!;
  expect(JSON.stringify(sent.body.messages)).toContain(`[1] (${PAGES.deploy}`);
  await snap(page, testInfo, '22-mention-cited-first');
});

test('Stop cancels the turn mid-stream and keeps the partial answer', async ({ page, served }, testInfo) => {
  served.ollama.onChat(slowReply(120));
  await ask(page, 'Tell me everything about the gateway');
  const answer = lastAnswer(page);
  await expect(answer).toContainText('Sentence 3 of');
  await page.getByRole('button', { name: 'Stop answer' }).click();
  await waitTurnEnded(page, /^Stopped$/);
  await expect(answer).toContainText('Stopped. The partial answer is kept.');
  await expect(answer).toContainText('Sentence 3 of');
  await expect(answer).not.toContainText('Sentence 40 of');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await snap(page, testInfo, '30-stopped');
  // The stored conversation keeps the partial answer too.
  await page.reload();
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /^Tell me everything/ }).click();
  await expect(lastAnswer(page)).toContainText('Sentence 3 of');
});

test('a second knowledge base answers from its own pages only', async ({ page, served }, testInfo) => {
  served.ollama.onChat(citingReply(5));
  await createKb(page, '厨房 Kitchen');
  await addFolderAndIndex(page, served.kitchenFolder);
  await showScreen(page, 'Pages');
  await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /Recipes/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /API Gateway/ })).toHaveCount(0);
  await showScreen(page, 'Chat');
  await ask(page, 'How long until the gateway times out? 部署 Docker');
  await waitTurnEnded(page);
  const answer = lastAnswer(page);
  await answer.getByText('Why these passages were found').click();
  await expect(answer.getByRole('row').nth(1)).toBeVisible();
  for (const path of [PAGES.gateway, PAGES.deploy, PAGES.meeting, PAGES.paper, PAGES.report]) {
    await expect(answer).not.toContainText(path);
  }
  const sent = served.ollama.requests.filter((r) => r.path === '/api/chat').pop()!;
  expect(JSON.stringify(sent.body.messages)).not.toContain('wiki/notes/');
  await snap(page, testInfo, '40-second-kb');
});

test('without Ollama: a banner says what to do and the answer quotes the passages', async ({ page, served }, testInfo) => {
  await served.ollama.close();
  await ask(page, 'What does the gateway log when a connection drops?');
  await waitTurnEnded(page, /^Answered with passages only/);
  const banner = page.getByRole('region', { name: 'Ollama is not reachable' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('ollama serve');
  const answer = lastAnswer(page);
  // The answer's own text says why once (from the core); no UI note repeats it under the answer.
  await expect(answer).toContainText('No language model is running (Ollama is not reachable at');
  await expect(answer.getByText(/Ollama (was|is) not reachable/)).toHaveCount(1);
  await expect(answer.locator('.turn-note')).toHaveCount(0);
  await expect(answer.getByRole('button', { name: /^Citation 1: / }).first()).toBeVisible();
  await expect(page.getByLabel(/^Language model:/)).toContainText('Ollama unreachable');
  await snap(page, testInfo, '50-ollama-down');
});

test('a failing model: an error is shown where the answer would be; a cut stream keeps what arrived', async ({ page, served }, testInfo) => {
  served.ollama.onChat({ chunks: [], status: 500, error: 'model runner crashed' });
  await ask(page, 'What does the gateway log?');
  await waitTurnEnded(page, /^Failed: /);
  await expect(lastAnswer(page).getByRole('alert')).toContainText('model runner crashed');

  served.ollama.onChat(rewriteReply('What does the gateway log, and what then?'));
  served.ollama.onChat({ chunks: [{ content: 'The gateway logs ' }, { content: 'E_CONN_RESET [1] ' }, { content: 'and then' }], cutAfter: 2 });
  await ask(page, 'And then?');
  await waitTurnEnded(page, /^Failed: /);
  const answer = lastAnswer(page);
  await expect(answer).toContainText('The gateway logs E_CONN_RESET');
  await expect(answer).toContainText('The answer broke off; what arrived is kept.');
  await expect(answer.getByRole('button', { name: /^Citation 1: / })).toBeVisible();
  await snap(page, testInfo, '60-failed-answers');
});
