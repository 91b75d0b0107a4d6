/** An answer's text as Markdown, with its citation markers as chips (see CitationChip). */
import { memo, useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { TurnInfo } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { answerMarkdown, citeOf } from '../lib/answer-markdown';
import { remarkCjkAutolinks } from '../lib/autolink';
import { CitationChip } from './CitationChip';

/** Props of {@link Answer}. */
export interface AnswerProps {
  content: string;
  /** The finished turn (null while streaming: chips are pending until the citations are checked). */
  turn: TurnInfo | null;
  onOpenPassage(passage: Passage): void;
}

// GFM, with bare URLs ending before Chinese punctuation (autolink.ts).
const REMARK_PLUGINS = [remarkGfm, remarkCjkAutolinks];

/** Render an answer; re-rendered on every streamed token, so kept to one Markdown pass. */
export const Answer = memo(function Answer({ content, turn, onOpenPassage }: AnswerProps) {
  const { markdown, markers } = useMemo(() => answerMarkdown(content), [content]);
  const components = useMemo<Components>(
    () => ({
      a({ href, children }) {
        const cite = citeOf(href);
        if (!cite) {
          return (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          );
        }
        const marker = markers[cite.marker];
        if (!turn || !marker) return <CitationChip number={cite.number} state="pending" passage={null} quoteVerified={null} onOpen={onOpenPassage} />;
        const checked = turn.citations.find((c) => c.markerStart === marker.start && c.number === cite.number);
        const passage = turn.passages[cite.number - 1] ?? null;
        const valid = checked ? checked.valid && !!passage : !!passage;
        return (
          <CitationChip
            number={cite.number}
            state={valid ? 'valid' : 'invalid'}
            passage={valid ? passage : null}
            quoteVerified={checked?.quoteVerified ?? null}
            onOpen={onOpenPassage}
          />
        );
      },
    }),
    [markers, turn, onOpenPassage],
  );
  return (
    <div className="answer-text markdown">
      <Markdown remarkPlugins={REMARK_PLUGINS} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
});
