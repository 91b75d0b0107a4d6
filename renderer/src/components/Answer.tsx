/** An answer's text as Markdown, with its citation markers as chips (see CitationChip). */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { TurnInfo } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { cutAnswer, type AnswerParts } from '../lib/answer-blocks';
import { answerMarkdown, citeOf } from '../lib/answer-markdown';
import { remarkCjkAutolinks } from '../lib/autolink';
import { CitationChip } from './CitationChip';

/** Props of {@link Answer}. */
export interface AnswerProps {
  content: string;
  /** The finished turn (null while streaming: chips are pending until the citations are checked). */
  turn: TurnInfo | null;
  onOpenPassage(passage: Passage): void;
  /** Where `content` starts in the whole answer, when it is one part of it (see {@link PartedAnswer}). Default 0. */
  offset?: number;
  /** Render without the wrapping element (a part of a {@link PartedAnswer}). Default false. */
  part?: boolean;
}

// GFM, with bare URLs ending before Chinese punctuation (autolink.ts).
const REMARK_PLUGINS = [remarkGfm, remarkCjkAutolinks];

/** Render an answer; re-rendered on every streamed token, so kept to one Markdown pass. */
export const Answer = memo(function Answer({ content, turn, onOpenPassage, offset = 0, part = false }: AnswerProps) {
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
        const checked = turn.citations.find((c) => c.markerStart === marker.start + offset && c.number === cite.number);
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
    [markers, turn, onOpenPassage, offset],
  );
  if (part) {
    return (
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {markdown}
      </Markdown>
    );
  }
  return (
    <div className="answer-text markdown">
      <Markdown remarkPlugins={REMARK_PLUGINS} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
});

/** Answers at least this long (characters) render in parts even when finished. */
const PARTED_FROM = 20_000;
/** Parts of a finished answer turned from plain text into Markdown per frame (see {@link PartedAnswer}). */
const PARTS_PER_FRAME = 2;

/**
 * An answer rendered in parts (see lib/answer-blocks): complete parts are memoised and only the last
 * ones re-render as text streams in, so a token costs the size of the last block, not of the answer.
 * A long finished answer shows its parts as plain text first and renders them as Markdown a few per
 * frame, so finishing (or stopping) a megabyte answer does not freeze the window. Short finished
 * answers render in one pass.
 */
export function PartedAnswer(props: Omit<AnswerProps, 'offset' | 'part'> & { streaming: boolean }) {
  const { content, turn, onOpenPassage, streaming } = props;
  const cut = useRef<AnswerParts | null>(null);
  const whole = !streaming && content.length < PARTED_FROM;
  const parts = useMemo(() => (whole ? null : (cut.current = cutAnswer(content, cut.current))), [content, whole]);
  const all = parts ? (parts.tail.text ? [...parts.stable, parts.tail] : parts.stable) : [];
  const [ready, setReady] = useState(streaming ? Infinity : 0);
  useEffect(() => {
    if (ready >= all.length) return;
    const frame = requestAnimationFrame(() => setReady((n) => n + PARTS_PER_FRAME));
    return () => cancelAnimationFrame(frame);
  }, [ready, all.length]);
  if (!parts) return <Answer content={content} turn={turn} onOpenPassage={onOpenPassage} />;
  return (
    <div className="answer-text markdown">
      {all.map((p, i) =>
        i < ready ? (
          <Answer key={p.start} content={p.text} offset={p.start} turn={turn} onOpenPassage={onOpenPassage} part />
        ) : (
          <p key={p.start} className="answer-pending">
            {p.text}
          </p>
        ),
      )}
    </div>
  );
}
