/**
 * The per-message search depth and follow-up rewriting in the real UI (issue #15): a follow-up sent with depth
 * "Deep" is rewritten by the (scripted) model, the turn's steps show the query it searched, and "why these passages"
 * shows the rewrite, which probe found each passage and the rerank.
 */
import type { MockChatReply } from '../electron/core/testing/ollama-mock';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';
import { tokens, CITING_ANSWER } from './replies';

const REWRITE = 'How long until the gateway times out when a connection drops';

/** The scripted model: each search helper's prompt gets its answer; anything else is the citing answer. */
function model(body: { messages: { content: string }[] }): MockChatReply {
  const system = body.messages[0]?.content ?? '';
  if (/standalone search query/.test(system)) return { chunks: [{ content: REWRITE }] };
  if (/different search queries/.test(system)) return { chunks: [{ content: 'gateway upstream timeout\nE_CONN_RESET retry' }] };
  if (/short passage/.test(system)) return { chunks: [{ content: 'Upstream calls time out after 30 seconds.' }] };
  if (/rank passages/.test(system)) return { chunks: [{ content: '2, 1' }] };
  return { chunks: tokens(CITING_ANSWER) };
}

test('a follow-up sent with depth Deep shows its rewritten query, probes and rerank', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(model);

  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const depth = page.getByRole('combobox', { name: 'Search depth' });
  await expect(depth).toHaveValue('');
  await depth.selectOption({ label: 'Deep' });
  await ask(page, 'And when a connection drops?');
  await waitTurnEnded(page, /^Done$/);
  // The choice stays for the next message.
  await expect(depth).toHaveValue('deep');

  const steps = page.getByRole('list', { name: 'Turn progress' }).last();
  await expect(steps.getByRole('listitem').first()).toHaveText(`Searching for “${REWRITE}”… · follow-up rewritten`);
  const answer = lastAnswer(page);
  await answer.getByText('Why these passages were found').click();
  await expect(answer.getByText(`Searched for: “${REWRITE}” (rewritten by the model from “And when a connection drops?”)`)).toBeVisible();
  await expect(answer.getByRole('columnheader', { name: 'Found by' })).toBeVisible();
  await expect(answer.getByRole('columnheader', { name: 'Rerank' })).toBeVisible();
  await expect(answer.getByRole('cell', { name: /^rewrite: keyword #\d+, vector #\d+ · rephrasing 1: / }).first()).toBeVisible();
  await expect(answer.getByRole('cell', { name: /hypothetical answer: vector #\d+$/ }).first()).toBeVisible();
  // Deep was sent with the message: the model was asked for rephrasings, a passage and a ranking.
  const systems = served.ollama.requests.filter((r) => r.path === '/api/chat').map((r) => String(r.body.messages[0].content));
  expect(systems.filter((s) => /different search queries|short passage|rank passages/.test(s))).toHaveLength(3);
  await answer.getByRole('table').scrollIntoViewIfNeeded();
  await snap(page, testInfo, 'depth-deep-follow-up');
});
