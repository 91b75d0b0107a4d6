/**
 * Settings show how to add Sift to an MCP client, and the configuration they show works: its URL and token
 * initialise an MCP session with the running host.
 */
import { expect, test } from './fixtures';
import { openSettings } from './helpers';

test('settings show ready-to-paste MCP configurations that work against this host', async ({ page, served }) => {
  await page.goto(served.url);
  const dialog = await openSettings(page);
  const section = dialog.getByRole('region', { name: 'Other agents (MCP)' });
  const stdio = section.getByLabel('Launched by the client (stdio)');
  await expect(stdio).toContainText('"command": "node"');
  await expect(stdio).toContainText('bin/sift.mjs');
  const http = JSON.parse((await section.getByLabel(/This running Sift over HTTP/).textContent()) ?? '') as {
    mcpServers: { sift: { url: string; headers: { Authorization: string } } };
  };
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('mcp-settings.png') });
  const { url, headers } = http.mcpServers.sift;
  expect(url).toBe(`${new URL(served.url).origin}/mcp`);
  const init = {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(init),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ result: { serverInfo: { name: 'sift' } } });
});
