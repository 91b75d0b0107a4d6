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

Browser mode:
  serve [--port N]            start the core and the loopback host; prints the URL to open

Options:
  --data-dir DIR              where Sift keeps its data (default: $SIFT_DATA_DIR, then the
                              OS's application-data folder for "Sift", as the app uses)
  --json                      print machine-readable JSON
  -h, --help                  show this help
`;
