/**
 * Settings section "Other agents (MCP)": how to add Sift to Claude Desktop, Cursor or VS Code, as
 * configurations to copy. The stdio one needs this install's `sift` command; the HTTP one exists only in
 * browser mode, where this tab holds the host's token.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from '../client';
import { TOKEN_KEY } from '../lib/host-token';
import { httpConfig, stdioConfig } from '../lib/mcp-config';

/** The section, with a copy button under each configuration. */
export function McpSettings() {
  const { t } = useTranslation();
  const [cliPath, setCliPath] = useState<string | null>(null);
  useEffect(() => {
    void client.invoke('app.info', {}).then((r) => r.ok && setCliPath(r.value.cliPath));
  }, []);
  const token = window.sift ? null : sessionStorage.getItem(TOKEN_KEY);
  return (
    <section className="settings-section" aria-labelledby="settings-mcp">
      <h3 id="settings-mcp">{t('settings.mcp')}</h3>
      <p className="field-help">{t('settings.mcpHelp')}</p>
      {cliPath && <Snippet label={t('settings.mcpStdio')} text={stdioConfig(cliPath)} />}
      {token && <Snippet label={t('settings.mcpHttp')} text={httpConfig(window.location.origin, token)} />}
      {!cliPath && !token && <p className="muted">{t('settings.mcpNone')}</p>}
    </section>
  );
}

function Snippet({ label, text }: { label: string; text: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <div className="mcp-snippet">
      <p className="field-label">{label}</p>
      <pre aria-label={label}>{text}</pre>
      <button
        type="button"
        onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true), () => setCopied(false))}
      >
        {copied ? t('settings.mcpCopied') : t('settings.mcpCopy')}
      </button>
    </div>
  );
}
