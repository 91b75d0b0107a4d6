/**
 * `chat.ask`: one question answered through the same turn as `chat.send`, with nothing stored. It is what
 * another agent calls (the MCP `ask` tool): the answer, its checked citations and references and the
 * decision, without a conversation appearing in the person's list.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage, TurnInfo } from '../../../shared/chat-models';
import type { Handlers } from '../../../shared/contract';
import { isErrorCode, SiftError } from '../../../shared/errors';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import { turnDepsFor, type ChatDeps } from './handlers';
import { runTurn } from './turn';
import type { TurnRegistry } from './turn-registry';

/** What `chat.ask` needs: the same as the chat handlers. */
export interface AskDeps extends ChatDeps {
  turns: TurnRegistry;
}

/** The handler for `chat.ask`. The turn is registered like any other, so closing the core stops it. */
export function askHandlers(ctx: CoreContext, deps: AskDeps): Pick<Handlers, 'chat.ask'> {
  return {
    async 'chat.ask'({ kb, question, model }) {
      const kbId = resolveKb(ctx, kb).id;
      const turnId = randomUUID();
      let kept: { content: string; turn: TurnInfo } | null = null;
      const store = (content: string, turn: TurnInfo): ChatMessage => {
        kept = { content, turn };
        return { id: turnId, conversationId: '', role: 'assistant', content, createdAt: new Date().toISOString(), turn };
      };
      const request = { turnId, kbId, conversationId: '', message: question, history: [], model };
      const turnDeps = { ...turnDepsFor(ctx, deps, kbId), store };
      let failed: SiftError | null = null;
      const stop = ctx.events.on('answer.failed', (e) => {
        if (e.turnId === turnId) failed = new SiftError(isErrorCode(e.code) ? e.code : 'internal', e.message);
      });
      try {
        await new Promise<void>((resolve) => {
          deps.turns.start(turnId, { conversationId: '', kbId }, (signal) => runTurn(request, turnDeps, signal).finally(resolve));
        });
      } finally {
        stop();
      }
      const result = kept as { content: string; turn: TurnInfo } | null;
      if (!result) throw failed ?? new SiftError('internal', 'the turn ended without an answer');
      return { turnId, answer: result.content, turn: result.turn };
    },
  };
}
