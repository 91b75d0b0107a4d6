import { describe, expect, it } from 'vitest';
import { americanSpelling } from './spelling';
import { tokenize } from './tokenize';

// [British, American]: each family of rules, with prefixes and endings.
const PAIRS: [string, string][] = [
  ['haemorrhage', 'hemorrhage'], ['ischaemic', 'ischemic'], ['leukaemia', 'leukemia'], ['hypoglycaemic', 'hypoglycemic'],
  ['paediatric', 'pediatric'], ['orthopaedics', 'orthopedics'], ['aetiology', 'etiology'], ['faeces', 'feces'],
  ['anaesthesia', 'anesthesia'], ['gynaecology', 'gynecology'], ['palaeontology', 'paleontology'], ['caesarean', 'cesarean'],
  ['oesophageal', 'esophageal'], ['oestrogen', 'estrogen'], ['oedema', 'edema'], ['myxoedema', 'myxedema'],
  ['foetal', 'fetal'], ['diarrhoea', 'diarrhea'], ['apnoea', 'apnea'], ['coeliac', 'celiac'], ['homoeostasis', 'homeostasis'],
  ['manoeuvre', 'maneuver'], ['manoeuvred', 'maneuvered'], ['manoeuvring', 'maneuvering'],
  ['tumour', 'tumor'], ['tumours', 'tumors'], ['behavioural', 'behavioral'], ['colours', 'colors'], ['neighbourhood', 'neighborhood'],
  ['favourable', 'favorable'], ['unfavourable', 'unfavorable'], ['labourer', 'laborer'],
  ['randomised', 'randomized'], ['organisation', 'organization'], ['recognise', 'recognize'], ['minimising', 'minimizing'],
  ['characterisations', 'characterizations'], ['normaliser', 'normalizer'], ['crystallise', 'crystallize'],
  ['hybridisation', 'hybridization'], ['emphasise', 'emphasize'], ['tokenises', 'tokenizes'],
  ['analyse', 'analyze'], ['analysed', 'analyzed'], ['paralysing', 'paralyzing'], ['catalysed', 'catalyzed'],
  ['centre', 'center'], ['centres', 'centers'], ['multicentre', 'multicenter'], ['centred', 'centered'], ['centrepiece', 'centerpiece'],
  ['millilitre', 'milliliter'], ['fibre', 'fiber'], ['theatregoer', 'theatergoer'], ['titre', 'titer'],
  ['analogue', 'analog'], ['homologues', 'homologs'], ['catalogue', 'catalog'],
  ['sulphate', 'sulfate'], ['disulphide', 'disulfide'], ['aluminium', 'aluminum'], ['artefacts', 'artifacts'],
  ['judgement', 'judgment'], ['acknowledgements', 'acknowledgments'], ['ageing', 'aging'], ['mould', 'mold'],
  ['smouldering', 'smoldering'], ['practised', 'practiced'], ['defence', 'defense'], ['offences', 'offenses'],
  ['licence', 'license'], ['programme', 'program'], ['kilogrammes', 'kilograms'],
];

// Words that only look like a British spelling, and American words: all unchanged.
const KEPT = [
  'aerobic', 'daemon', 'maestro', 'israel', 'aes', 'haem', 'does', 'poem', 'coefficient', 'phoenix', 'canoe', 'shoes',
  'four', 'hour', 'pour', 'tour', 'contour', 'your', 'flour', 'sour', 'amour', 'journal', 'course', 'source',
  'rise', 'arise', 'wise', 'otherwise', 'advise', 'revise', 'devise', 'supervise', 'televised', 'exercise', 'precise',
  'concise', 'surprise', 'enterprise', 'comprised', 'promise', 'compromised', 'premises', 'demise', 'expertise',
  'advertising', 'franchise', 'merchandise', 'treatise', 'chastise', 'paradise', 'noise', 'poise', 'raised',
  'praise', 'cruise', 'bruise', 'disguise', 'anise', 'valise', 'analysis', 'analyses', 'paralysis', 'crisis', 'basis',
  'genre', 'acre', 'ogre', 'massacre', 'mediocre', 'cadre', 'macabre', 'metric', 'literal', 'fiber', 'center',
  'vogue', 'rogue', 'league', 'tongue', 'synagogue', 'program', 'gram', 'tumor', 'color', 'hemorrhage', 'randomized',
  'analyze', 'lyse', 'lysed', 'fence', 'hence', 'licensed', 'license', 'sulfur', 'aging', 'mold', 'practice',
];

describe('americanSpelling', () => {
  it.each(PAIRS)('spells %s as %s', (british, american) => {
    expect(americanSpelling(british)).toBe(american);
  });

  it.each(KEPT)('leaves %s as it is', (word) => {
    expect(americanSpelling(word)).toBe(word);
  });

  it('is idempotent: a folded word folds to itself', () => {
    for (const word of [...PAIRS.flat(), ...KEPT]) expect(americanSpelling(americanSpelling(word)), word).toBe(americanSpelling(word));
  });
});

describe('the tokenizer folds British spellings', () => {
  it('gives a British and an American word the same token, as a word and as an identifier part', () => {
    expect(tokenize('tumours')).toEqual(tokenize('tumors'));
    expect(tokenize('haemorrhagic')).toEqual(tokenize('hemorrhagic'));
    expect(tokenize('randomised')).toEqual(tokenize('randomized'));
    expect(tokenize('colour_picker')).toEqual(['colour_picker', ...tokenize('color picker')]);
  });

  it('keeps identifiers whole as written', () => {
    expect(tokenize('normalise_colour')).toContain('normalise_colour');
  });
});
