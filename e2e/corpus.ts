/**
 * The fixture folders the end-to-end tests index: Markdown in English and Chinese, a GBK text
 * file, a real PDF and DOCX (built by the parser tests' own builders), and one broken PDF that
 * must show up as a failed file. A second, unrelated folder feeds a second knowledge base.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { buildDocx, buildPdf } from '../electron/core/ingest/parse/fixtures';

/** Page paths the tests look for (the first folder of a knowledge base has no prefix). */
export const PAGES = {
  gateway: 'wiki/notes/gateway.md',
  deploy: 'wiki/notes/部署指南.md',
  meeting: 'wiki/会议记录.txt',
  paper: 'wiki/papers/vector-search.pdf',
  report: 'wiki/papers/report.docx',
  recipes: 'wiki/recipes.md',
} as const;

/** The file that cannot be parsed, relative to the main folder. */
export const BROKEN_FILE = 'papers/broken.pdf';

const GATEWAY = `# API Gateway

The gateway routes every request to the right service and keeps a log of each one.

## Timeouts

Requests to upstream services time out after 30 seconds. When a connection drops, the gateway logs E_CONN_RESET and retries the request once.

## Rate limits

Each client may send 100 requests per minute; beyond that the gateway answers 429.
`;

const DEPLOY = `# 部署指南

本文介绍如何部署网关服务。

## 环境准备

部署前需要安装 Docker 和 Node.js 20。配置文件位于 config/gateway.yaml。

## 回滚

如果新版本出现问题，使用 rollback 命令回滚到上一个版本。
`;

const MEETING = `会议记录

日期：2026年11月

讨论了缓存策略：热点数据缓存十分钟，冷数据不缓存。
`;

const RECIPES = `# Recipes

## Dumplings 饺子

Mix flour and water into a soft dough, rest it for thirty minutes, then fill with pork and cabbage.

## Tomato soup

Roast the tomatoes with garlic, blend, and season with salt.
`;

/** Write the main fixture folder into `dir` (created when missing); returns `dir`. */
export async function writeMainFolder(dir: string): Promise<string> {
  const file = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  };
  file('notes/gateway.md', GATEWAY);
  file('notes/部署指南.md', DEPLOY);
  file('会议记录.txt', iconv.encode(MEETING, 'gbk'));
  file(
    'papers/vector-search.pdf',
    buildPdf(
      [
        ['Vector Search Notes', 'Hybrid retrieval combines keyword search with embeddings.'],
        ['Reciprocal rank fusion merges the two rankings with k = 60.'],
      ],
      { title: 'Vector Search Notes' },
    ),
  );
  file(
    'papers/report.docx',
    await buildDocx([
      { text: 'Quarterly Report', heading: 1 },
      { text: 'Revenue grew by twelve percent in the third quarter.' },
      { text: 'Risks', heading: 2 },
      { text: 'Supplier delays remain the main risk.' },
    ]),
  );
  file(BROKEN_FILE, '%PDF-1.7\nthis file was cut short and is not a PDF at all\n');
  return dir;
}

/** Write the second knowledge base's folder (recipes only) into `dir`; returns `dir`. */
export function writeKitchenFolder(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'recipes.md'), RECIPES);
  return dir;
}
