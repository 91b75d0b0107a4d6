/**
 * Checking an answer against the turn's passages, by code: every `[n]` is mapped to passage n or
 * marked invalid; a quotation attributed to `[n]` must occur in passage n; the references list is
 * built from the cited passages, never from the model's text; and the turn's decision is named.
 */
import type { Citation, Decision, Reference } from '../../../shared/chat-models';
import { findAttributedQuotes, parseCitationMarkers, quoteMatches } from '../../../shared/citations';
import type { Passage } from '../../../shared/models';

/** Citations of `answer` validated against `passages` (passage i is `[i + 1]`), and the references list. */
export function checkCitations(answer: string, passages: Passage[]): { citations: Citation[]; references: Reference[] } {
  const markers = parseCitationMarkers(answer);
  const quotes = new Map(findAttributedQuotes(answer, markers).map((q) => [q.markerIndex, q]));
  const citations: Citation[] = [];
  markers.forEach((marker, index) => {
    const attributed = quotes.get(index);
    for (const number of marker.numbers) {
      const passage = passages[number - 1];
      const quote = attributed && attributed.numbers.includes(number) ? attributed.quote : null;
      citations.push({
        number,
        valid: passage !== undefined,
        markerStart: marker.start,
        markerEnd: marker.end,
        quote,
        // A quotation cited to several passages is verified when any of them holds it.
        quoteVerified: quote === null ? null : attributed!.numbers.some((n) => passages[n - 1] && quoteMatches(quote, passages[n - 1]!.text)),
      });
    }
  });
  return { citations, references: referencesOf(citations, passages) };
}

/**
 * The references list of `citations`: each valid cited passage once, in number order. Used for citations
 * parsed from a model's answer and for those an extractive answer is built with.
 */
export function referencesOf(citations: Citation[], passages: Passage[]): Reference[] {
  const references: Reference[] = [];
  for (const c of citations) {
    if (!c.valid || references.some((r) => r.number === c.number)) continue;
    const p = passages[c.number - 1]!;
    references.push({
      number: c.number, title: p.title, pagePath: p.pagePath, provenance: p.provenance, quote: p.text,
      ...(p.focus ? { focus: p.focus } : {}), ...(p.openFence ? { openFence: p.openFence } : {}), evidenceId: p.evidenceId, start: p.start, end: p.end,
    });
  }
  references.sort((a, b) => a.number - b.number);
  return references;
}

// Phrases with which an answer says the knowledge base holds nothing on the question.
const REFUSAL = /(没有(找到|相关)|未找到|找不到|无法(回答|找到)|不包含|no (relevant|information|passages?)|nothing (relevant|in the knowledge base)|does(n't| not) (contain|mention|say)|not (found|mentioned) in)/i;

/**
 * The turn's decision: `no_answer` when there is no answer text at all; `refused` when the search
 * found nothing, or the answer cites nothing and says so; `clarification` when the answer, citing
 * nothing, ends by asking the person a question; `answered` otherwise.
 */
export function decide(answer: string, citations: Citation[], searchFoundNothing: boolean): Decision {
  if (!answer.trim()) return 'no_answer';
  const cites = citations.some((c) => c.valid);
  if (searchFoundNothing && !cites) return 'refused';
  if (cites) return 'answered';
  if (REFUSAL.test(answer)) return 'refused';
  if (/[?？]\s*$/.test(answer.trim())) return 'clarification';
  return 'answered';
}
