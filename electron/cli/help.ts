/** The text of `sift --help`. */
export const HELP = `sift — your folders, searchable, with answers you can check

Usage: sift [--data-dir DIR] <command> [arguments] [--json]
       (a query or name that starts with "-" goes after --: sift search KB -- "-v2 notes")

Knowledge bases (KB is an id or an exact name):
  kb create NAME              create a knowledge base; prints its id
  kb list [--json]            list knowledge bases
  kb rename KB NEWNAME        rename a knowledge base
  kb delete KB                delete a knowledge base and its index file

Folders:
  folder add KB PATH [--follow-links]
                              add a folder to a knowledge base; --follow-links also reads
                              what links inside it point to outside it (off by default)
  folder remove KB PATH       remove a folder from a knowledge base
  folder list KB [--json]     list the folders of a knowledge base

Indexing and pages:
  ingest KB [--watch] [--json] index the knowledge base's folders (only what changed);
                              --watch keeps indexing changes until Ctrl+C
  pages KB [--json]           list the knowledge base's wiki pages
  page KB wiki/PATH [--json]  show one page: text, sections, chunks with offsets
  manifest KB [--json]        every file: source path, size, time, sha256, parser, encoding,
                              chunks, and whether its vectors are current

Page digests:
  digest KB [--on|--off] [--model M] [--ollama-host URL] [--json]
                              write a short cited summary of every changed page and an
                              overview of the knowledge base (wiki/_digest/…) with a local
                              Ollama model; --on turns digests on for the knowledge base
                              (off by default), --off turns them off and removes them

Search:
  search KB "QUERY" [--top-k N] [--mode hybrid|keyword|vector] [--json]
                              hybrid keyword + vector search; passages with where they
                              came from and why they were found; a passage holding the
                              query as written comes first, and words in double quotes
                              are looked for in a row: sift search KB '"invalid write" heap'
    [--rewrite [--history "EARLIER QUESTION"]...] [--multi-query N] [--hyde]
    [--rerank llm|cross-encoder|none] [--model M] [--ollama-host URL]
                              LLM enhancements: rewrite a follow-up, search N phrasings,
                              add a hypothetical-answer probe, rerank; what each did is
                              shown with the results (off, with a note, without a model)
  glossary KB [TERM] [--json] the knowledge base's glossary (pages named glossary, 术语表 or
                              词汇表, or with front matter "sift: glossary"); with TERM, its
                              entries by any of its names, else those of the terms it names

Evaluation:
  eval DATASET [--mode hybrid|keyword|vector] [--top-k N] [--split S] [--json]
                              index a dataset (BEIR: corpus.jsonl, or a docs/ folder; with
                              queries.jsonl and qrels/S.tsv, S default test) into a throw-away
                              knowledge base and print Hit@5, Recall@5/20, MRR@10, nDCG@10
                              overall and per category, and latency; --top-k default 20
    [--enhance rewrite,multi-query=N,hyde,rerank=llm|cross-encoder] [--ollama-host URL]
                              measure the enhancements (follow-ups of followups.jsonl are
                              searched with their history)

Other agents (MCP):
  mcp [--kb KB]...            serve Sift's tools (search, get_context, read_page, list_pages,
                              list_knowledge_bases, ask) and pages over MCP on stdin/stdout;
                              --kb limits what the agent sees (repeat for several; a name
                              that does not exist is an error); spans are UTF-16 offsets

Chat:
  ask KB "QUESTION" [--model M] [--ollama-host URL] [--conversation ID] [--json]
                              answer from the knowledge base with a local Ollama model,
                              streamed, then the references; without Ollama the cited
                              passages themselves (host: --ollama-host, then $OLLAMA_HOST)
  ask KB "QUESTION" --provider NAME
                              answer with a provider of the settings (or "ollama")
  ask KB "QUESTION" --base-url URL [--model M]
                              answer with an OpenAI-compatible server (LM Studio,
                              llama-server, vLLM, a hosted API); key from $SIFT_API_KEY,
                              then $OPENAI_API_KEY

Conversations and export:
  conversations KB [--json]   list conversations with their ids and their messages' ids
  export CONVERSATION [--message ID] [--format md|html|pdf] [--out FILE]
                              an answer (--message) or a whole conversation with every
                              citation as a footnote; to stdout without --out

Browser mode:
  serve [--port N]            start the core and the loopback host; prints the URL to open

Options:
  --data-dir DIR              where Sift keeps its data (default: $SIFT_DATA_DIR, then the
                              OS's application-data folder for "Sift", as the app uses)
  --json                      print machine-readable JSON
  -h, --help                  show this help
  -v, --version               print Sift's version

Environment:
  SIFT_DATA_DIR               the data folder (as --data-dir)
  SIFT_EMBEDDING              none | transformers (default) | ollama:MODEL
  SIFT_EMBED_MODEL            embedding model id (default Xenova/multilingual-e5-small)
  SIFT_MODEL_DIR              a local folder holding embedding model files (works offline)
  SIFT_MODEL_HOST             a Hugging Face mirror to download the model from
  OLLAMA_HOST                 the Ollama server (default http://127.0.0.1:11434)
  SIFT_HOST_TOKEN             serve: use this token instead of a random one (keeps open tabs
                              working across a restart; keep it secret)
`;
