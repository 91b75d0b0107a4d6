/**
 * The outline of a source file: its classes, functions and methods as headings, so a passage of code says where
 * it is (`RotatingFileHandler › shouldRollover · lines 141–162`). A code page is still cut into the same windows
 * (ingest/prepare.ts): one section per function made short functions outrank the code a question was about. A
 * passage is named by the definition it is shown from (search/passages.ts withFocus); the page view keeps code
 * as written, with line numbers.
 *
 * Only definitions a line declares with its language's keyword are read (`def`, `class`, `function`, `func`,
 * `fn`, `struct` …), plus, inside a class, methods written with modifiers or as JavaScript writes them, and C's
 * functions defined at the start of a line; a definition is a heading only when a body follows it on later lines
 * (`def size(self): return 1` is none). Nesting is read from indentation: a definition indented under another is
 * one level below it (at most MAX_DEPTH). Comments and strings are not parsed, so a definition inside a multi-line
 * string can be taken for one; that costs a label, never text.
 */
import type { Heading } from '../../store/page-model';
import { LineOffsets } from './line-offsets';

/** Definitions nested deeper than this are left to their enclosing section. */
const MAX_DEPTH = 3;

/** What a language's definition line gives: its name, and whether it opens a class-like block (methods follow). */
interface Definition {
  name: string;
  container: boolean;
}

type Reader = (line: string, insideClass: boolean) => Definition | null;

const IDENT = '[A-Za-z_$][\\w$]*';

/** Keywords that look like a method's name followed by `(` in brace languages, but are statements. */
const STATEMENTS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'with', 'else', 'do', 'try', 'new', 'typeof', 'await', 'yield', 'throw', 'sizeof', 'super', 'this']);

const def = (name: string | undefined, container = false): Definition | null => (name ? { name, container } : null);

/** A method a class member's line defines by `pattern` (its name the first group): not a statement, not a declaration ending in `;`. */
function method(pattern: RegExp, line: string): Definition | null {
  const m = pattern.exec(line);
  return m && !STATEMENTS.has(m[1]!) && !/;\s*$/.test(line) ? def(m[1]) : null;
}

const PYTHON_DEF = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/;
const PYTHON_CLASS = /^\s*class\s+([A-Za-z_]\w*)\s*[(:]/;
/** A Python definition whose body is on its own line: not `def f(): return 1`. */
const PYTHON_ONE_LINER = /\)\s*(?:->[^:]*)?:\s*[^\s#]|^\s*class\s+\w+(?:\([^)]*\))?\s*:\s*[^\s#]/;

const python: Reader = (line) => {
  if (PYTHON_ONE_LINER.test(line)) return null;
  const c = PYTHON_CLASS.exec(line);
  if (c) return def(c[1], true);
  return def(PYTHON_DEF.exec(line)?.[1]);
};

const JS_FUNCTION = new RegExp(`^\\s*(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?(?:async\\s+)?function\\s*\\*?\\s*(${IDENT})`);
const JS_CLASS = new RegExp(`^\\s*(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+(${IDENT})`);
const TS_BLOCK = new RegExp(`^\\s*(?:export\\s+)?(?:declare\\s+)?(?:const\\s+)?(?:interface|enum|namespace)\\s+(${IDENT}(?:\\.${IDENT})*)`);
/** `const parse = (…) => {`, `export const handler = async function (…) {` at the top level. */
const JS_CONST_FUNCTION = new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+(${IDENT})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|${IDENT}\\s*=>)`);
/** CommonJS: `exports.parse = function (…) {`, `Parser.prototype.parse = function (…) {`. */
const JS_ASSIGNED = new RegExp(`^\\s*(?:module\\.)?(?:exports|${IDENT}\\.prototype)\\.(${IDENT})\\s*=\\s*(?:async\\s+)?function\\b`);
/** A class member with a body: `async parse(input) {`, `static get size() {`, `private emit<T>(e: T): void {`. */
const JS_METHOD = new RegExp(`^\\s+(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\\s+)*\\*?(#?${IDENT})\\s*(?:<[^>]*>)?\\s*\\(`);

const javascript: Reader = (line, insideClass) => {
  const c = JS_CLASS.exec(line);
  if (c) return def(c[1], true);
  const f = JS_FUNCTION.exec(line) ?? JS_ASSIGNED.exec(line) ?? JS_CONST_FUNCTION.exec(line);
  if (f) return def(f[1]);
  const block = TS_BLOCK.exec(line);
  if (block) return def(block[1]);
  return insideClass ? method(JS_METHOD, line) : null;
};

const GO_FUNC = /^func\s+(?:\(\s*\w*\s*\*?\s*(\w+)[^)]*\)\s*)?(\w+)/;
const GO_TYPE = /^type\s+(\w+)\s+(?:struct|interface)\b/;

const go: Reader = (line) => {
  const t = GO_TYPE.exec(line);
  if (t) return def(t[1]);
  const f = GO_FUNC.exec(line);
  return f ? def(f[1] ? `${f[1]}.${f[2]}` : f[2]) : null;
};

const RUST_ITEM = /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe|default|extern\s+"[^"]*")\s+)*(fn|struct|enum|trait|impl|mod|union)\b(?:<[^>]*>)?\s*([^{;(<]*)/;

const rust: Reader = (line) => {
  const m = RUST_ITEM.exec(line);
  if (!m) return null;
  const name = m[2]!.trim().replace(/\s+/g, ' ');
  return def(name, m[1] === 'impl' || m[1] === 'trait' || m[1] === 'mod');
};

const RUBY_DEF = /^\s*(def|class|module)\s+((?:self\.)?[\w:.]+[?!=]?)/;

const ruby: Reader = (line) => {
  if (/\bend\s*$/.test(line) || /^\s*def\s+[\w.?!]+(?:\([^)]*\))?\s*=\s*\S/.test(line)) return null;
  const m = RUBY_DEF.exec(line);
  return m ? def(m[2], m[1] !== 'def') : null;
};

/** Java, C#, Kotlin, Scala, Swift, Dart, PHP, Groovy: declared types, keyword functions, methods with modifiers. */
const TYPE_DECLARATION = /^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|partial|export|inline|value|enum|annotation|companion|case)\s+)*(?:class|interface|enum|record|struct|object|trait|protocol|extension|namespace)\s+(\w+)/;
const KEYWORD_FUNCTION = /^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|open|suspend|inline|operator|async|mutating)\s+)*(?:fun|func|def|function)\s+(?:<[^>]*>\s*)?(?:\w+\.)?(\w+)/;
const MODIFIED_METHOD = /^\s+(?:(?:public|private|protected|internal|static|final|abstract|synchronized|override|virtual|async|sealed|native|unsafe|extern|new)\s+)+[\w<>[\],.?\s]*?\b(\w+)\s*(?:<[^>]*>)?\s*\(/;

const braces: Reader = (line, insideClass) => {
  const t = TYPE_DECLARATION.exec(line);
  if (t) return def(t[1], true);
  const f = KEYWORD_FUNCTION.exec(line);
  if (f) return def(f[1]);
  return insideClass ? method(MODIFIED_METHOD, line) : null;
};

/** C and C++: types and namespaces, and a function defined at the start of a line (`int main(void)`, `static void Foo::run()`,
 *  or its name alone under its type, as GNU code writes it). */
const C_TYPE = /^\s*(?:typedef\s+)?(?:struct|class|union|namespace|enum(?:\s+class)?)\s+(\w+)\s*(?::[^{;]*)?\{?\s*$/;
const C_FUNCTION = /^(?!(?:if|for|while|switch|return|else|do|typedef|using|case|goto)\b)(?:[A-Za-z_][\w\s*&:<>,~]*?[\s*&])?([A-Za-z_~][\w~]*(?:::[A-Za-z_~][\w~]*)*)\s*\([^;]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?\{?\s*$/;

const c: Reader = (line) => {
  const t = C_TYPE.exec(line);
  if (t) return def(t[1], true);
  if (/^\s/.test(line) || /^\s*#/.test(line)) return null;
  return def(C_FUNCTION.exec(line)?.[1]);
};

const LUA_FUNCTION = /^\s*(?:local\s+)?function\s+([\w.:]+)/;
const SHELL_FUNCTION = /^\s*(?:function\s+([A-Za-z_][\w:-]*)\s*(?:\(\s*\))?|([A-Za-z_][\w:-]*)\s*\(\s*\))\s*\{?\s*$/;

/**
 * A language: its reader, and the words a definition line can start with, so only those lines are read (most lines
 * of code are statements; reading every one as a string made code parse 20× slower). `anyAt` lets other lines be
 * read too: a method inside a class, a function at the start of a line (C, shell, JavaScript's `Parser.prototype.x =`).
 */
interface Language {
  read: Reader;
  starts: readonly string[];
  anyAt?: (indent: number, insideClass: boolean) => boolean;
  /** Blocks are read from indentation (Python, Ruby), not braces. */
  indented?: boolean;
}

const MODIFIERS = ['public ', 'private ', 'protected ', 'internal ', 'static ', 'final ', 'abstract ', 'sealed ', 'open ', 'data ', 'partial ',
  'export ', 'inline ', 'value ', 'enum ', 'annotation ', 'companion ', 'case ', 'override ', 'suspend ', 'operator ', 'async ', 'mutating ',
  'synchronized ', 'virtual ', 'native ', 'unsafe ', 'extern ', 'new '];
const JS: Language = {
  read: javascript,
  starts: ['export ', 'function', 'class ', 'const ', 'let ', 'var ', 'async ', 'interface ', 'enum ', 'namespace ', 'declare ', 'abstract ', 'module.', 'exports.'],
  anyAt: (indent, insideClass) => insideClass || indent === 0,
};
const BRACES: Language = {
  read: braces,
  starts: [...MODIFIERS, 'class ', 'interface ', 'record ', 'struct ', 'object ', 'trait ', 'protocol ', 'extension ', 'namespace ', 'fun ', 'func ', 'def ', 'function '],
};
const C: Language = { read: c, starts: ['struct ', 'class ', 'union ', 'namespace ', 'enum ', 'typedef '], anyAt: (indent) => indent === 0 };
const SHELL: Language = { read: (line) => { const m = SHELL_FUNCTION.exec(line); return def(m?.[1] ?? m?.[2]); }, starts: ['function '], anyAt: (indent) => indent === 0 };

const LANGUAGES: Record<string, Language> = {
  python: { read: python, starts: ['def ', 'class ', 'async '], indented: true },
  ruby: { read: ruby, starts: ['def ', 'class ', 'module '], indented: true },
  javascript: JS, jsx: JS, typescript: JS, tsx: JS,
  go: { read: go, starts: ['func ', 'type '] },
  rust: { read: rust, starts: ['pub', 'fn ', 'struct ', 'enum ', 'trait ', 'impl', 'mod ', 'union ', 'async ', 'const ', 'unsafe ', 'extern ', 'default '] },
  java: BRACES, kotlin: BRACES, csharp: BRACES, scala: BRACES, swift: BRACES, dart: BRACES, php: BRACES, groovy: BRACES,
  c: C, cpp: C,
  lua: { read: (line) => def(LUA_FUNCTION.exec(line)?.[1]), starts: ['local ', 'function '] },
  bash: SHELL, zsh: SHELL,
};

/** A text's lines as offsets, with their indentation. */
class Lines extends LineOffsets {
  /** Where line `i`'s first character that is not a space or tab is (its end for a blank line), and its indentation width. */
  lead(i: number): { at: number; indent: number } {
    let indent = 0;
    let k = this.start(i);
    for (const end = this.end(i); k < end; k++) {
      const ch = this.text.charCodeAt(k);
      if (ch === 32) indent++;
      else if (ch === 9) indent += 4;
      else break;
    }
    return { at: k, indent };
  }
}

/**
 * Whether the definition on line `i` has a body on later lines: for brace languages the line (or the next
 * one) opens a block it does not close; for indented ones the next line with text is indented further.
 */
function hasBody(lines: Lines, i: number, line: string, indent: number, indented: boolean): boolean {
  let k = i + 1;
  while (k < lines.count && lines.lead(k).at === lines.end(k)) k++;
  if (k >= lines.count) return false;
  const next = lines.lead(k);
  if (indented) return next.indent > indent || /[(,[]\s*$/.test(line);
  let opens = 0;
  let closes = 0;
  for (let k = 0; k < line.length; k++) {
    const ch = line.charCodeAt(k);
    if (ch === OPEN_BRACE) opens++;
    else if (ch === CLOSE_BRACE) closes++;
  }
  if (opens > closes) return true;
  if (opens === 0 && lines.at(k).trimStart().startsWith('{')) return true;
  // A signature running on over several lines: `function parse(` … `) {`.
  return opens === 0 && /[(,]\s*$/.test(line) && next.indent > indent;
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** True when a definition can start with this character: a letter, `_`, `$`, `#` (a private method), `*` (a generator), `@` or a non-ASCII letter. */
function mayStartDefinition(ch: number): boolean {
  return (ch >= 97 && ch <= 122) || (ch >= 65 && ch <= 90) || ch === 95 || ch === 36 || ch === 35 || ch === 42 || ch === 64 || ch > 127;
}

/** The headings of a source file in `language` (kinds.ts's names); none for a language without a reader. */
export function codeHeadings(text: string, language: string | null): Heading[] {
  const lang = language ? LANGUAGES[language] : undefined;
  if (!lang) return [];
  const lines = new Lines(text);
  const headings: Heading[] = [];
  // Open definitions: their indentation and whether they hold methods.
  const open: { indent: number; container: boolean }[] = [];
  for (let i = 0; i < lines.count; i++) {
    const { at, indent } = lines.lead(i);
    const end = lines.end(i);
    if (at === end) continue;
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    if (open.length >= MAX_DEPTH) continue;
    const insideClass = open.length > 0 && open[open.length - 1]!.container;
    // `}`, `)`, comments' `//` and `/*`: no definition starts so, and they are many of a file's lines.
    if (!mayStartDefinition(text.charCodeAt(at))) continue;
    if (!lang.starts.some((w) => text.startsWith(w, at)) && !lang.anyAt?.(indent, insideClass)) continue;
    const line = lines.at(i);
    const found = lang.read(line, insideClass);
    if (!found || !hasBody(lines, i, line, indent, lang.indented ?? false)) continue;
    headings.push({ start: at, end: lines.start(i) + line.trimEnd().length, level: open.length + 1, text: found.name });
    open.push({ indent, container: found.container });
  }
  return headings;
}
