/**
 * Which kind of document a file name stands for. Decided by the name alone (lower-cased extension,
 * or the whole name for well-known extensionless files) so a folder scan never has to open a file
 * to know whether Sift will read it. A name that says nothing (`README.Debian`, `configure`,
 * `app.conf`) is read as plain text when its content is text (see `looksLikeText`); a name that
 * says "not text" (`.gz`, `.mp4`, `.exe`) is listed as not read without opening the file.
 */
import type { DocumentKind } from '../../store/page-model';

/** What a file name says about its content: the parser to use and, for code, the language. */
export interface FileKind {
  kind: DocumentKind;
  /** Code only: the language name (highlighter-style ids such as `typescript`, `cpp`). */
  language: string | null;
}

const MARKDOWN = ['md', 'markdown', 'mdx'];
const PLAIN_TEXT = ['txt', 'text', 'log', 'rst', 'org', 'pod'];
/** Spreadsheets and delimited tables, read by SheetJS (see sheet.ts). */
const SHEETS = ['xlsx', 'xlsm', 'xls', 'ods', 'csv', 'tsv'];
const SLIDES = ['pptx', 'odp'];
const HTML = ['html', 'htm'];
/** Images, read by OCR (see image.ts). */
const IMAGES = ['png', 'jpg', 'jpeg', 'webp', 'tif', 'tiff', 'bmp'];

/** Extension → language for source code. `.h` is read as C: it is the more common owner of the name. */
const CODE = new Map<string, string>(Object.entries({
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  py: 'python', pyi: 'python', rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin',
  c: 'c', h: 'c', cpp: 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', cs: 'csharp',
  php: 'php', swift: 'swift', scala: 'scala', sh: 'bash', bash: 'bash', zsh: 'zsh', sql: 'sql',
  yaml: 'yaml', yml: 'yaml', toml: 'toml', json: 'json', jsonc: 'json', ini: 'ini',
  css: 'css', scss: 'scss', xml: 'xml', lua: 'lua', dart: 'dart',
}));

/** Extensionless names that are prose (compared lower-case); `copyright` is every Debian package's licence file. */
const TEXT_NAMES = new Set([
  'readme', 'license', 'licence', 'copying', 'copyright', 'changelog', 'changes', 'history', 'news', 'notice',
  'authors', 'contributors', 'install', 'todo', 'notes',
]);

/** Extensionless names that are code, with their language (compared lower-case). */
const CODE_NAMES = new Map<string, string>(Object.entries({
  makefile: 'makefile', gnumakefile: 'makefile', dockerfile: 'dockerfile', containerfile: 'dockerfile',
  gemfile: 'ruby', rakefile: 'ruby', vagrantfile: 'ruby', jenkinsfile: 'groovy',
}));

/**
 * Extensions of files that are never text and that Sift does not read (yet): archives, media, fonts,
 * binaries, databases, and office formats without a parser. Listed as not read, never opened.
 */
const NOT_TEXT = new Set([
  'gz', 'tgz', 'zip', 'tar', 'xz', 'txz', 'bz2', 'tbz2', 'zst', '7z', 'rar', 'lz', 'lzma', 'z', 'deb', 'rpm', 'apk',
  'dmg', 'iso', 'img', 'jar', 'war', 'whl', 'egg', 'nupkg', 'crx', 'xpi',
  'gif', 'ico', 'icns', 'heic', 'avif', 'psd', 'xcf', 'raw',
  'mp3', 'wav', 'flac', 'ogg', 'oga', 'm4a', 'aac', 'opus', 'mid', 'midi',
  'mp4', 'm4v', 'mov', 'avi', 'mkv', 'webm', 'wmv', 'flv', 'mpg', 'mpeg',
  'ttf', 'otf', 'woff', 'woff2', 'eot', 'pfb',
  'exe', 'dll', 'so', 'dylib', 'o', 'obj', 'a', 'lib', 'class', 'pyc', 'pyo', 'wasm', 'node', 'bin', 'dat', 'elc',
  'mo', 'gmo', 'sqlite', 'sqlite3', 'db', 'mdb', 'pdb', 'npy', 'npz', 'pkl', 'parquet', 'onnx', 'pt', 'safetensors',
  'doc', 'ppt', 'odt', 'pages', 'numbers', 'key', 'mobi', 'azw3', 'djvu',
]);

/**
 * True when the name alone says Sift does not read the file: an extension of {@link NOT_TEXT} that no
 * parser claims. Such a file is listed as not read, without being opened.
 */
export function isNotRead(fileName: string): boolean {
  const ext = extensionOf(fileName);
  return ext !== null && NOT_TEXT.has(ext) && kindOf(fileName) === null;
}

/** The last path segment of `fileName`, whichever separator the caller used. */
export function baseName(fileName: string): string {
  const parts = fileName.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

/** The lower-case extension of the last path segment (`Q3.XLSX` → `xlsx`); null for none, or a hidden name. */
export function extensionOf(fileName: string): string | null {
  const base = baseName(fileName).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1) : null;
}

/**
 * The kind of document `fileName` holds, or null when Sift does not read that kind of file.
 * Hidden files (`.env`, `.gitignore`) have no extension in this sense and are not read.
 */
export function kindOf(fileName: string): FileKind | null {
  const base = baseName(fileName).toLowerCase();
  const ext = extensionOf(base);
  if (ext === null) {
    if (base.startsWith('.')) return null; // `.env`: a hidden name, no extension
    if (TEXT_NAMES.has(base)) return { kind: 'text', language: null };
    const language = CODE_NAMES.get(base);
    return language ? { kind: 'code', language } : null;
  }
  if (MARKDOWN.includes(ext)) return { kind: 'markdown', language: null };
  if (PLAIN_TEXT.includes(ext)) return { kind: 'text', language: null };
  if (HTML.includes(ext)) return { kind: 'html', language: null };
  if (ext === 'pdf') return { kind: 'pdf', language: null };
  if (ext === 'docx') return { kind: 'docx', language: null };
  if (SHEETS.includes(ext)) return { kind: 'sheet', language: null };
  if (SLIDES.includes(ext)) return { kind: 'slides', language: null };
  if (ext === 'epub') return { kind: 'epub', language: null };
  if (IMAGES.includes(ext)) return { kind: 'image', language: null };
  const language = CODE.get(ext);
  return language ? { kind: 'code', language } : null;
}
