import { describe, expect, it } from 'vitest';
import { DEFAULT_ENHANCE_SETTINGS, type EnhanceSettings } from '../../../../shared/settings';
import { DEPTH_PRESETS, needsModel, planEnhancements, type EnhanceAsk, type PlanInput } from './plan';

const S = DEFAULT_ENHANCE_SETTINGS;
const strict: EnhanceSettings = { ...S, maxMultiQuery: 2, allowHyde: false, allowRerank: false };
const eager: EnhanceSettings = { ...S, multiQuery: 3, hyde: true, rerank: 'llm' };

type Row = [string, { caller?: EnhanceAsk; args?: EnhanceAsk; settings?: EnhanceSettings; noModel?: string }, object, RegExp[]];

describe('planEnhancements: caller > tool arguments > settings, clamped by the settings, off without a model', () => {
  const rows: Row[] = [
    ['settings defaults when nobody asks', {}, { rewrite: true, multiQuery: 1, hyde: false, rerank: null }, []],
    ['settings defaults that ask for everything', { settings: eager }, { multiQuery: 3, hyde: true, rerank: 'llm' }, []],
    ['tool arguments beat the settings', { args: { multiQuery: 2, hyde: false, rerank: null }, settings: eager }, { multiQuery: 2, hyde: false, rerank: null }, []],
    ['the caller beats the tool arguments', { caller: { multiQuery: 1, rerank: null }, args: { multiQuery: 3, rerank: 'llm', hyde: true } }, { multiQuery: 1, hyde: true, rerank: null }, []],
    ['a deep depth beats quiet tool arguments', { caller: DEPTH_PRESETS.deep, args: { multiQuery: 1, hyde: false } }, { multiQuery: 3, hyde: true, rerank: 'llm' }, []],
    ['the maximum clamps the caller', { caller: { multiQuery: 6 }, settings: strict }, { multiQuery: 2 }, [/6 queries asked.*at most 2/]],
    ['the maximum clamps the tool arguments', { args: { multiQuery: 4 }, settings: strict }, { multiQuery: 2 }, [/at most 2/]],
    ['rerank kill switch beats the caller', { caller: { rerank: 'cross-encoder' }, settings: strict }, { rerank: null }, [/rerank \(cross-encoder\): turned off/]],
    ['rerank kill switch beats the settings default', { settings: { ...eager, allowRerank: false } }, { rerank: null }, [/rerank \(llm\): turned off/]],
    ['HyDE not allowed', { caller: { hyde: true }, settings: strict }, { hyde: false }, [/HyDE: turned off/]],
    ['no model: every LLM enhancement off whatever was asked', { caller: DEPTH_PRESETS.deep, noModel: 'Ollama is not reachable' }, { rewrite: true, multiQuery: 1, hyde: false, rerank: null }, [/multi-query, HyDE, LLM rerank: off, no model \(Ollama is not reachable\)/]],
    ['no model keeps the cross-encoder (no LLM in it)', { caller: { rerank: 'cross-encoder' }, noModel: 'none' }, { rerank: 'cross-encoder' }, []],
    ['caller can turn rewriting off', { caller: { rewrite: false } }, { rewrite: false }, []],
  ];
  it.each(rows)('%s', (_name, given, expected, notes) => {
    const input: PlanInput = { caller: given.caller, args: given.args, settings: given.settings ?? S, noModel: given.noModel ?? null };
    const plan = planEnhancements(input);
    expect(plan).toMatchObject(expected);
    expect(plan.notes).toHaveLength(notes.length);
    notes.forEach((n, i) => expect(plan.notes[i]).toMatch(n));
  });

  it('needs a model for a rewrite only with history, and for every other LLM enhancement', () => {
    const plan = planEnhancements({ settings: S, noModel: null });
    expect(needsModel(plan, false)).toBe(false);
    expect(needsModel(plan, true)).toBe(true);
    expect(needsModel({ ...plan, rewrite: false, rerank: 'cross-encoder' }, true)).toBe(false);
    expect(needsModel({ ...plan, rewrite: false, rerank: 'llm' }, false)).toBe(true);
  });
});
