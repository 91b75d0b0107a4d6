/**
 * British and American spellings of one word made one, before stemming: `tumour` is indexed and
 * searched as `tumor`, `haemorrhage` as `hemorrhage`, `randomised` as `randomized`. Papers, runbooks
 * and READMEs mix both, and a reader who types one spelling should find the other.
 *
 * The tokenizer folds page text and queries alike, so a rule only has to avoid making two different
 * words one; a fold that writes a word no dictionary has (`promise` → `promize`) is harmless.
 * Rules are therefore tied to the spelling families, never a bare letter swap:
 * - `ae` of Greek medical roots: `haem…`, `…aemia`, `paed…`, `aetio…`, `faec…`, `anaes…`, `gynaec…`,
 *   `palaeo…`, `archaeo…` (not `aerobic`, `daemon`, `maestro`);
 * - `oe` of `oesophag…`, `oestr…`, `oedem…`, `foet…`, `…rrhoea`, `…pnoea`, `coeliac`, `homoeo…`,
 *   `manoeuvr…` (not `does`, `poem`, `coefficient`);
 * - `our` of a closed list of stems (`colour`, `behaviour`, `tumour`, `neighbour` …; not `four`,
 *   `hour`, `pour`, `tour`, `contour`);
 * - `-ise`, `-isation` … after a stem of three letters or more (`normalise`, `organise`, `recognise`),
 *   unless the stem is one of the `-ise` words that stay (`rise`, `advise`, `exercise`, `enterprise`,
 *   `promise`, `expertise`: NOT_ISE), and `-lyse` (`analyse`, `paralyse`; not `analyses`, a plural);
 * - `-tre` of `centre`, `metre`, `litre`, `fibre`, `theatre`, `calibre`, `titre` … (not `genre`,
 *   `acre`, `ogre`), `-logue` → `-log`, and a few single words (`sulphur`, `aluminium`, `judgement`,
 *   `defence`, `licence`, `programme`).
 * The rules were checked against Debian's large British and American word lists (118,622 words): no
 * two words of either list become one unless one is the other's spelling. spelling.test.ts holds
 * examples of each rule and of the words it must leave alone.
 *
 * Input is a lower-case ASCII word; the result is the same word or its American spelling.
 */

/** Replacements inside a word holding `ae`, in order. */
const AE: [RegExp, string][] = [
  [/haem(?=[a-z])/g, 'hem'],
  [/aem(?=ia|ic)/g, 'em'],
  [/paed/g, 'ped'],
  [/gynaec/g, 'gynec'],
  [/^(?=aetio|aeon|aesth|aestiv|faec|caec|caes|anaes|palaeo|archaeo|mediaev)([a-z]*?)ae/, '$1e'],
];

/** Replacements inside a word holding `oe`, in order. */
const OE: [RegExp, string][] = [
  [/^oe(?=soph|str|nolog)/, 'e'],
  [/oedem/, 'edem'],
  [/^foet/, 'fet'],
  [/(?<=rrh|pn)oe/, 'e'],
  [/^coeliac/, 'celiac'],
  [/^homoeo/, 'homeo'],
  [/^manoeuvre?d/, 'maneuvered'],
  [/^manoeuvre?/, 'maneuver'],
];

/** Stems whose British form has `our` where the American has `or` (any prefix, any ending after). */
const OUR =
  /^([a-z]*?(?:behavi|col|fav|flav|hon|hum|lab|neighb|harb|arb|od|vap|rum|sav|vig|arm|endeav|ferv|parl|rig|splend|val|clam|clang|tum|cand|ard|demean|succ|ranc|dol|enam))our/;

/** `-ise` and its endings after a stem of three letters or more; the American spelling is `-ize`. */
const ISE = /^([a-z]{3,})is(e|es|ed|ing|er|ers|able|ation|ations|ational|ement|ements)$/;

/**
 * Stems of `-ise` words that are not `-ize` verbs: those ending `w` (`otherwise`), `v` (`advise`,
 * `revise`), `c` (`exercise`, `precise`), `pr` (`surprise`, `comprise`), `u` (`disguise`, `cruise`),
 * a vowel (`raise`, `noise`), `ch` (`franchise`), and a few more by name.
 */
const NOT_ISE = /(?:[wvcuaeioy]|pr|ch)$|^(?:advert|expert|a?mort|merchand|treat|chast|parad|prom|comprom|prem|dem|surm|rem|ten|val|cer|chem)$/;

/** The `-lyse` verbs (`analyse`, `paralyse`, `catalyse`, `hydrolyse`); not `-lyses`, the plural of `-lysis`. */
const LYSE = /^([a-z]+l)ys(e|ed|ing|er|ers)$/;

/** `-tre` that is American `-ter` (`centre`, `multicentre`, `centrepiece`, `millilitre`, `theatregoer`). */
const TRE =
  /(cent|theat|lust|fib|met|lit|calib|sab|spect|somb|meag|tit|goit|mit|nit|scept|philt|piast|reconnoit|diopt|cadast)re(?![aeiouy])(d(?![a-z]))?/;

/** `-logue` → `-log` (`analogue`, `catalogue`, `dialogue`, `homologue`). */
const LOGUE = /^([a-z]{2,}lo)gue(s)?$/;

/** Single words and word parts spelt otherwise (`sulphate`, `aluminium`, `judgement`, `defence`). */
const OTHER: [RegExp, string][] = [
  [/sulph/g, 'sulf'],
  [/aluminium/, 'aluminum'],
  [/artefact/, 'artifact'],
  [/dgement/, 'dgment'],
  [/^ageing/, 'aging'],
  [/^(s?)mould/, '$1mold'],
  [/^practis(?=e|ing)/, 'practic'],
  [/^(def|off|pret|lic)ence/, '$1ense'],
  [/(?<=gra)mme(s?)$/, 'm$1'],
];

/** What every word a rule above changes holds: most words hold none of it and are returned at once. */
const MAYBE = /ae|oe|our|is[aei]|lys[ei]|[tbg]re|logue|sulph|alumin|artef|dgem|ageing|mould|practis|ence|mme/;

export function americanSpelling(word: string): string {
  if (!MAYBE.test(word)) return word;
  let w = word;
  for (const [from, to] of OTHER) w = w.replace(from, to);
  if (w.includes('ae')) for (const [from, to] of AE) w = w.replace(from, to);
  if (w.includes('oe')) for (const [from, to] of OE) w = w.replace(from, to);
  if (w.includes('our')) w = w.replace(OUR, '$1or');
  if (w.includes('is')) w = w.replace(ISE, (m, stem: string, end: string) => (NOT_ISE.test(stem) ? m : `${stem}iz${end}`));
  if (w.includes('lys')) w = w.replace(LYSE, '$1yz$2');
  if (w.includes('re')) w = w.replace(TRE, (_m, stem: string, d?: string) => `${stem}er${d ? 'ed' : ''}`);
  if (w.includes('logue')) w = w.replace(LOGUE, '$1g$2');
  return w;
}
