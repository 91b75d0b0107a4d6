/**
 * The CLI's search-enhancement flags: `search … --rewrite --multi-query N --hyde --rerank llm|cross-encoder` and
 * `eval … --enhance rewrite,multi-query=3,hyde,rerank=llm`, read into the contract's EnhanceRequest or a usage error.
 */
import type { EnhanceRequest } from '../../shared/models';
import { UsageError } from './usage';

/** The flags these commands read. */
export interface EnhanceFlags {
  rewrite?: boolean;
  'multi-query'?: string;
  hyde?: boolean;
  rerank?: string;
  enhance?: string;
}

function multiQuery(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new UsageError(`${flag} must be a whole number from 1 to 8, got ${value}`);
  return n;
}

function rerank(value: string, flag: string): 'llm' | 'cross-encoder' | null {
  if (value === 'llm' || value === 'cross-encoder') return value;
  if (value === 'none') return null;
  throw new UsageError(`${flag} must be llm, cross-encoder or none, got ${value}`);
}

/** `search`'s separate flags as an EnhanceRequest, or undefined when none is given (the settings decide). */
export function enhanceOfFlags(flags: EnhanceFlags): EnhanceRequest | undefined {
  const out: EnhanceRequest = {};
  if (flags.rewrite) out.rewrite = true;
  if (flags['multi-query'] !== undefined) out.multiQuery = multiQuery(flags['multi-query'], '--multi-query');
  if (flags.hyde) out.hyde = true;
  if (flags.rerank !== undefined) out.rerank = rerank(flags.rerank, '--rerank');
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * An `--enhance` list such as `rewrite,multi-query=3,hyde,rerank=llm` (or `none`, to ask for no enhancement) as an
 * EnhanceRequest; unknown or repeated names are usage errors.
 */
export function parseEnhanceList(spec: string): EnhanceRequest {
  const out: EnhanceRequest = {};
  if (spec.trim() === 'none') return { rewrite: false, multiQuery: 1, hyde: false, rerank: null };
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, value] = item.split('=', 2) as [string, string | undefined];
    const key = name === 'multi-query' ? 'multiQuery' : name;
    if (key in out) throw new UsageError(`--enhance names ${name} twice`);
    if (name === 'rewrite' || name === 'hyde') {
      if (value !== undefined) throw new UsageError(`--enhance: ${name} takes no value, got ${item}`);
      out[name] = true;
    } else if (name === 'multi-query') out.multiQuery = multiQuery(value ?? '3', '--enhance multi-query');
    else if (name === 'rerank') out.rerank = rerank(value ?? 'llm', '--enhance rerank');
    else throw new UsageError(`--enhance: unknown enhancement "${name}" (use rewrite, multi-query=N, hyde, rerank=llm|cross-encoder)`);
  }
  return out;
}
