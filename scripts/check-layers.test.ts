import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../electron/core/testing/temp';
import { checkLayers, CORE_LAYERS } from './check-layers';

function tree(files: Record<string, string>): string {
  const root = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('layer check', () => {
  it('passes on this repository', () => {
    expect(checkLayers(path.resolve(__dirname, '..'))).toEqual([]);
  });

  it('fires on each deliberately bad import', () => {
    const root = tree({
      'electron/core/bad.ts': "import { app } from 'electron';\nexport const x = 1;",
      'electron/core/reaches-host.ts': "import { startHttpHost } from '../hosts/http-host';",
      'electron/core/fine.ts': "import fs from 'node:fs';\nimport { x } from '../../shared/x';\nimport pkg from '../../package.json';",
      'shared/bad.ts': "import fs from 'node:fs';\nimport { createSift } from '../electron/core';\nexport * from '../renderer/src/x';",
      'shared/fine.ts': "import { z } from 'zod';\nimport type { A } from './a';",
      'renderer/src/bad.tsx': "const { ipcRenderer } = require('electron');\nconst m = await import('../../electron/core/sift');\nimport path from 'path';",
      'renderer/src/fine.tsx': "import React from 'react';\nimport { operations } from '../../shared/contract';",
    });
    const found = checkLayers(root).map((v) => `${v.file}:${v.line} ${v.specifier}`);
    expect(found.sort()).toEqual(
      [
        'electron/core/bad.ts:1 electron',
        'electron/core/reaches-host.ts:1 ../hosts/http-host',
        'renderer/src/bad.tsx:1 electron',
        'renderer/src/bad.tsx:2 ../../electron/core/sift',
        'renderer/src/bad.tsx:3 path',
        'shared/bad.ts:1 node:fs',
        'shared/bad.ts:2 ../electron/core',
        'shared/bad.ts:3 ../renderer/src/x',
      ].sort(),
    );
  });

  it('keeps the core in its layer order: nothing imports upward or across to a peer', () => {
    const root = tree({
      'electron/core/text/chunk.ts': "import type { Heading } from '../ingest/types';",
      'electron/core/store/migrations/kb/009-x.ts': "import { parseGlossary } from '../../../glossary/parse';",
      'electron/core/embed/openai.ts': "import { retryAfterMs } from '../llm/openai-client';",
      'electron/core/search/search.ts': "import { pageVersions } from '../versions/lookup';\nimport { keywordSearch } from './keyword';",
      'electron/core/ingest/run.ts': "import { DIGEST_FOLDER } from '../digests/paths';\nimport { now } from '../store/context';",
      'electron/core/ingest/indexer.ts': "spawnWorker(() => new URL('../ingest-worker-main.ts', import.meta.url), 'ingest-worker.cjs');",
      'electron/core/chat/turn.ts': "import { searchKnowledgeBase } from '../search/search';\nimport { lookupGlossary } from '../glossary/store';",
      'electron/core/sift.ts': "import { chatHandlers } from './chat/handlers';",
      'electron/core/newthing/x.ts': "import { now } from '../store/context';",
      'electron/core/kb/folders.ts': "import { fixture } from './testing/fixture';",
    });
    const found = checkLayers(root).map((v) => `${v.file} -> ${v.target}: ${v.reason}`);
    expect(found.sort()).toEqual(
      [
        'electron/core/embed/openai.ts -> electron/core/llm/openai-client: models (embed/) and models (llm/) are peers in one layer: neither imports the other',
        'electron/core/ingest/indexer.ts -> electron/core/ingest-worker-main.ts: ingest (ingest/) is below facade (the facade files): a layer imports only the layers under it',
        'electron/core/ingest/run.ts -> electron/core/digests/paths: ingest (ingest/) is below outputs (digests/): a layer imports only the layers under it',
        'electron/core/kb/folders.ts -> electron/core/kb/testing/fixture: only tests import tests and testing/ helpers',
        'electron/core/newthing/x.ts -> electron/core/store/context: electron/core/newthing/ is in no layer: add it to CORE_LAYERS in scripts/check-layers.ts',
        'electron/core/search/search.ts -> electron/core/versions/lookup: search (search/) is below features (versions/): a layer imports only the layers under it',
        'electron/core/store/migrations/kb/009-x.ts -> electron/core/glossary/parse: store (store/) is below features (glossary/): a layer imports only the layers under it',
        'electron/core/text/chunk.ts -> electron/core/ingest/types: text (text/) is below ingest (ingest/): a layer imports only the layers under it',
      ].sort(),
    );
  });

  it('lets a test reach the facade and testing helpers, and nothing else upward', () => {
    const root = tree({
      'electron/core/sift.ts': 'export const createSift = 1;',
      'electron/core/search/testing/test-kb.ts': "import { createSift } from '../../sift';",
      'electron/core/kb/folders.test.ts': "import { createSift } from '../sift';\nimport { makeKb } from '../search/testing/test-kb';\nimport { tempDir } from '../testing/temp';",
      'electron/core/store/private.test.ts': "import { appendRetrievalLog } from '../chat/retrieval-log';",
    });
    const found = checkLayers(root).map((v) => `${v.file} -> ${v.target}`);
    expect(found).toEqual(['electron/core/store/private.test.ts -> electron/core/chat/retrieval-log']);
  });

  it('names every folder of electron/core in the layer order', () => {
    const core = path.resolve(__dirname, '../electron/core');
    const folders = fs.readdirSync(core, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'testing').map((e) => e.name);
    const named = CORE_LAYERS.flatMap((l) => l.parts);
    expect(folders.filter((f) => !named.includes(f))).toEqual([]);
  });
});
