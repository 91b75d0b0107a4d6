/**
 * How an answer that did not end normally says so under it: a model that never answered (every round a tool call)
 * and a stream with unreadable lines.
 */
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, waitTurnEnded } from './helpers';

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
});

test('a turn whose every round was a tool call says the model produced no answer', async ({ page, served }) => {
  const call = { chunks: [{ toolCalls: [{ name: 'kb_search', arguments: { query: 'gateway' } }] }] };
  for (let i = 0; i < 4; i++) served.ollama.onChat(call);
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const answer = lastAnswer(page);
  await expect(answer.getByText('The model produced no answer.')).toBeVisible();
  await expect(answer.getByText(/spent its 4 round\(s\) calling tools/)).toBeVisible();
});

test('an answer with unreadable lines from the model server says it may be incomplete', async ({ page, served }) => {
  const chunks = [{ content: 'The gateway waits ' }, { raw: '{"broken' }, { content: '30 seconds [1].' }];
  served.ollama.onChat({ chunks });
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const answer = lastAnswer(page);
  await expect(answer).toContainText('The gateway waits 30 seconds');
  const note = 'Parts of the model’s output could not be read; the answer may be incomplete.';
  await expect(answer.getByText(note)).toBeVisible();
});
