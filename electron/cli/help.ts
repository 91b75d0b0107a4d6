/** The text of `sift --help`. */
export const HELP = `sift — your folders, searchable, with answers you can check

Usage: sift [--data-dir DIR] <command> [arguments] [--json]

Knowledge bases (KB is an id or an exact name):
  kb create NAME              create a knowledge base; prints its id
  kb list [--json]            list knowledge bases
  kb rename KB NEWNAME        rename a knowledge base
  kb delete KB                delete a knowledge base and its index file

Folders:
  folder add KB PATH          add a folder to a knowledge base
  folder remove KB PATH       remove a folder from a knowledge base
  folder list KB [--json]     list the folders of a knowledge base

Indexing and pages:
  ingest KB [--watch] [--json] index the knowledge base's folders (only what changed);
                              --watch keeps indexing changes until Ctrl+C
  pages KB [--json]           list the knowledge base's wiki pages
  page KB wiki/PATH [--json]  show one page: text, sections, chunks with offsets

Search:
  search KB "QUERY" [--top-k N] [--mode hybrid|keyword|vector] [--json]
                              hybrid keyword + vector search; passages with where they
                              came from and why they were found

Browser mode:
  serve [--port N]            start the core and the loopback host; prints the URL to open

Options:
  --data-dir DIR              where Sift keeps its data (default: $SIFT_DATA_DIR, then the
                              OS's application-data folder for "Sift", as the app uses)
  --json                      print machine-readable JSON
  -h, --help                  show this help

Environment:
  SIFT_DATA_DIR               the data folder (as --data-dir)
  SIFT_EMBEDDING              none | transformers (default) | ollama:MODEL
  SIFT_EMBED_MODEL            embedding model id (default Xenova/multilingual-e5-small)
  SIFT_MODEL_DIR              a local folder holding embedding model files (works offline)
  OLLAMA_HOST                 the Ollama server (default http://127.0.0.1:11434)
`;
