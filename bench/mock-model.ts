/**
 * A stand-in chat model for measuring `sift eval --enhance …` where no Ollama runs (issue #15): the Ollama test
 * server with a scripted, deterministic "model" that answers the search helpers' prompts mechanically. It shows the
 * pipeline's effect, not a real model's quality:
 * - rewrite: the previous question followed by the follow-up (what a good rewrite contains, word for word);
 * - multi-query: the query's key terms as one line, and the query without its first word;
 * - HyDE: the query repeated as a passage;
 * - rerank: the candidates in their given order ("1, 2, 3, …"), so a rerank changes nothing.
 *
 *   npx tsx bench/mock-model.ts            # prints OLLAMA_HOST=http://127.0.0.1:PORT and serves until Ctrl+C
 *   OLLAMA_HOST=… npx sift eval resources/eval/sift-bilingual --mode keyword --enhance rewrite
 */
import { keyTerms } from '../electron/core/search/enhance/rewrite';
import { startMockOllama, type MockChatReply } from '../electron/core/testing/ollama-mock';

function reply(body: { messages: { content: string }[] }): MockChatReply {
  const system = body.messages[0]?.content ?? '';
  const user = body.messages.at(-1)?.content ?? '';
  let text: string;
  if (/standalone search query/.test(system)) {
    const lines = user.split('\n');
    const previous = lines.filter((l) => l.startsWith('User: ')).at(-1)?.slice('User: '.length) ?? '';
    const last = lines.at(-1)!.replace(/^User \(last message\): /, '');
    text = `${previous} ${last}`.trim();
  } else if (/different search queries/.test(system)) {
    text = `${keyTerms(user).join(' ')}\n${user.split(/\s+/).slice(1).join(' ')}`;
  } else if (/short passage/.test(system)) {
    text = `${user}. ${user}.`;
  } else if (/rank passages/.test(system)) {
    const count = (user.match(/^\[\d+\] /gm) ?? []).length;
    text = Array.from({ length: count }, (_, i) => i + 1).join(', ');
  } else text = '(mock model)';
  return { chunks: [{ content: text }] };
}

const server = await startMockOllama();
server.onChat(reply);
console.log(`OLLAMA_HOST=${server.url}`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
