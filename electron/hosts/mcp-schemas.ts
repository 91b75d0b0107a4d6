/**
 * What each MCP tool returns, as zod schemas: the SDK publishes them as the tools' `outputSchema` (JSON Schema an
 * agent can check `structuredContent` against) and checks every result against them before it leaves. They are made
 * from the contract's own schemas, so a result is exactly what the operation returns.
 */
import { z } from 'zod';
import { Decision, Citation, Reference, TurnInfo } from '../../shared/chat-models';
import { Evidence, KnowledgeBase, ManifestRow, OcrLine, PageDetail, SearchResult } from '../../shared/models';

/** The span words every tool that returns offsets uses: they count UTF-16 code units, as JavaScript strings do. */
export const SPAN_UNITS =
  'Offsets (start, end, windowStart, length) count UTF-16 code units, as JavaScript strings do; an emoji or a rare '
  + 'CJK character is two. In Python, slice text.encode("utf-16-le")[2*start:2*end].decode("utf-16-le").';

/** The output schema of every tool, by tool name. */
export const OUTPUTS = {
  list_knowledge_bases: z.object({ knowledgeBases: z.array(KnowledgeBase) }),
  search: SearchResult,
  get_context: Evidence,
  read_page: z.object({
    path: z.string(),
    title: z.string(),
    kind: z.string(),
    /** The page's whole length, UTF-16 code units. */
    length: z.number().int(),
    start: z.number().int(),
    end: z.number().int(),
    text: z.string(),
    headings: PageDetail.shape.headings,
    /** The numbered parts the range overlaps: PDF pages, slides, chapters, or a sheet's row runs (offsets into the page). */
    parts: z.array(z.object({ kind: z.string(), number: z.number().int(), start: z.number().int(), end: z.number().int() })),
    /** Read by OCR (an image, a scanned PDF page): the model, mean confidence (0–1), whether it is low, and for each OCR'd
     *  page the range overlaps its image size and the lines in the range, each with its text, span, box
     *  `[left, top, right, bottom]` in image pixels and confidence. Null for a page without OCR. */
    ocr: z.object({
      model: z.string(),
      confidence: z.number(),
      lowConfidence: z.boolean(),
      pages: z.array(z.object({
        page: z.number().int(),
        width: z.number().int(),
        height: z.number().int(),
        confidence: z.number(),
        lines: z.array(OcrLine.extend({ text: z.string() })),
      })),
    }).nullable(),
  }),
  list_pages: z.object({ pages: z.array(ManifestRow) }),
  ask: z.object({
    answer: z.string(),
    decision: Decision,
    status: TurnInfo.shape.status,
    model: z.string().nullable(),
    citations: z.array(Citation),
    references: z.array(Reference),
    passages: TurnInfo.shape.passages,
    warnings: z.array(z.string()).optional(),
  }),
} as const;

/** A tool's name. */
export type ToolName = keyof typeof OUTPUTS;
