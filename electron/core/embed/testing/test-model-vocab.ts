/**
 * The vocabulary of the tiny test embedding model (see `test-model.ts`): special tokens, ASCII
 * characters, a few hundred whole English words, letter bigrams for the words it does not know, and
 * the 3,755 most common Chinese characters. Whole words and bigrams make texts that share words
 * share tokens, so vector search over the test model behaves like a bag-of-words search.
 */
import { TextDecoder } from 'node:util';

/** Special tokens, in id order: padding must be id 0 because the tokenizer pads with it. */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/** Prefix WordPiece puts before a piece that continues a word. */
export const CONTINUATION = '##';

// Common English and software words, so that e.g. "timeout" is one token rather than seven letters.
const ENGLISH_WORDS = `
the a an and or not no of to in on at by for with from as is are was were be been being it its this that these
those there here what which who whom whose when where why how all any each every some many much more most other
such only own same so than too very can will just should would could may might must do does did done have has had
i you he she we they me him her us them my your his our their one two three four five first second last new old
good bad big small long short high low great little right left next up down out over under again off into about
after before between through during without within above below time year day week month hour minute second today
yesterday tomorrow now then always never often sometimes people person man woman child world life work home house
place city country way thing part case point fact group number name word line page book note notes paper papers
question answer problem result reason idea example story list table data file files folder folders path text image
picture video audio music sound game water food money price cost market company business team project plan goal
meeting report document documents research study science history art language english chinese code program function
method class object value values type types string number error errors warning bug bugs fix test tests testing debug
build release version update install setup config configuration setting settings option options user users account
password login logout key keys token tokens server client service services network connection connect disconnect
request response http https url api endpoint port host proxy database query queries index search find match result
results cache memory disk storage load save read write open close start stop run running restart retry retries
timeout timeouts delay latency slow fast speed performance limit rate queue job jobs task tasks thread process worker
event events message messages log logs trace stack crash fail failed failure success status state check health
monitor alert alerts deploy deployment cluster node nodes container docker kubernetes cloud linux windows mac system
systems machine model models train training learning vector vectors embedding embeddings chunk chunks passage
passages document query knowledge base wiki chat answer citation citations source sources reference references
weather rain snow sun wind cold hot warm spring summer autumn winter garden tree trees flower flowers bird birds cat
cats dog dogs fish horse animal animals car cars train bus road travel trip hotel airport flight coffee tea bread
rice apple apples fruit cook cooking recipe dinner lunch breakfast kitchen health doctor hospital medicine school
student students teacher class lesson university
`;

// Symbols people write in Chinese text; the pre-tokenizer splits them off as tokens of their own.
const CJK_PUNCTUATION = '，。、；：？！“”‘’（）《》【】「」『』…—～·';

/** The GB2312 rows that hold its level-1 characters: the 3,755 most common Chinese characters. */
const GB2312_LEVEL1 = { firstRow: 0xb0, lastRow: 0xd7, lastCellOfLastRow: 0xf9 };

/** The 3,755 most common Chinese characters, decoded from GB2312 level 1 (ordered by pinyin). */
export function commonChineseCharacters(): string[] {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder('gb2312');
  } catch {
    // A Node built with small-icu has no GB2312 decoder: sample the CJK block evenly instead,
    // which still covers a few thousand characters (common ones less reliably).
    return sampleCjkBlock(3755);
  }
  const chars: string[] = [];
  for (let row = GB2312_LEVEL1.firstRow; row <= GB2312_LEVEL1.lastRow; row++) {
    const lastCell = row === GB2312_LEVEL1.lastRow ? GB2312_LEVEL1.lastCellOfLastRow : 0xfe;
    for (let cell = 0xa1; cell <= lastCell; cell++) chars.push(decoder.decode(new Uint8Array([row, cell])));
  }
  return chars;
}

function sampleCjkBlock(count: number): string[] {
  const first = 0x4e00;
  const last = 0x9fff;
  const step = (last - first) / count;
  return Array.from({ length: count }, (_, i) => String.fromCodePoint(first + Math.floor(i * step)));
}

/** Printable ASCII except upper-case letters (the tokenizer lower-cases first). */
function asciiCharacters(): string[] {
  const chars: string[] = [];
  for (let code = 0x21; code <= 0x7e; code++) {
    const char = String.fromCharCode(code);
    if (char < 'A' || char > 'Z') chars.push(char);
  }
  return chars;
}

function letterBigrams(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const bigrams: string[] = [];
  for (const a of letters) for (const b of letters) bigrams.push(a + b);
  return bigrams;
}

/**
 * Every token of the test model in id order, without duplicates. Deterministic: the same list on
 * every machine with full ICU, so a test model written twice has the same ids.
 */
export function testModelVocabulary(): string[] {
  const ascii = asciiCharacters();
  const wordPieces = ascii.filter((c) => /[a-z0-9]/.test(c)).map((c) => CONTINUATION + c);
  const bigrams = letterBigrams();
  const words = ENGLISH_WORDS.split(/\s+/).filter((w) => w.length > 2);
  const tokens = [
    ...SPECIAL_TOKENS,
    ...ascii,
    ...wordPieces,
    ...bigrams,
    ...bigrams.map((b) => CONTINUATION + b),
    ...words,
    ...CJK_PUNCTUATION,
    ...commonChineseCharacters(),
  ];
  return [...new Set(tokens)];
}
