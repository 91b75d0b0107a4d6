import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../electron/core/testing/temp';
import { checkLayers } from './check-layers';

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
});
