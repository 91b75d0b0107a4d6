/** The application shell: knowledge bases on the left, the selected one's screens, the status bar. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from './client';
import { Banners } from './components/Banners';
import { ChatScreen } from './components/ChatScreen';
import { EmptyState } from './components/EmptyState';
import { FolderPanel } from './components/FolderPanel';
import { IndexingPanel } from './components/IndexingPanel';
import { KbHeader } from './components/KbHeader';
import { KbSidebar } from './components/KbSidebar';
import { PagesScreen } from './components/PagesScreen';
import { COMPOSER_FIELD_ID } from './components/Composer';
import { SettingsDialog } from './components/SettingsDialog';
import { ShortcutsDialog } from './components/ShortcutsDialog';
import { isTextField, shortcutOf } from './lib/shortcuts';
import { StatusBar } from './components/StatusBar';
import type { KnowledgeBase } from '../../shared/models';
import { useChat } from './state/chat';
import { useIngest } from './state/ingest';
import { useKbs, useSelectedKb } from './state/kbs';
import { LLM_POLL_MS, useLlm } from './state/llm';
import { usePages } from './state/pages';
import { useSettings } from './state/settings';
import { useUi } from './state/ui';

/** The whole window. */
export function App() {
  const { t } = useTranslation();
  const { loaded, load } = useKbs();
  const selected = useSelectedKb();
  const settingsOpen = useUi((s) => s.settingsOpen);
  const shortcutsOpen = useUi((s) => s.shortcutsOpen);
  useStartup(load);
  useShortcuts();
  useKbData(selected?.id ?? null);
  return (
    <div className="app">
      <KbSidebar />
      <main className="main" aria-labelledby={selected ? 'kb-title' : undefined}>
        <Banners kb={selected} />
        {!loaded ? null : selected ? (
          <Workspace kb={selected} />
        ) : (
          <EmptyState
            title={t('app.noKbTitle')}
            action={
              <button type="button" className="primary" onClick={() => document.getElementById('new-kb-name')?.focus()}>
                {t('app.noKbAction')}
              </button>
            }
          >
            <p>{t('app.noKbText')}</p>
          </EmptyState>
        )}
      </main>
      <StatusBar />
      {settingsOpen && <SettingsDialog />}
      {shortcutsOpen && <ShortcutsDialog onClose={() => useUi.getState().setShortcutsOpen(false)} />}
    </div>
  );
}

function Workspace({ kb }: { kb: KnowledgeBase }) {
  const screen = useUi((s) => s.screen);
  return (
    <div className="workspace">
      <KbHeader kb={kb} />
      <div id="screen" role="tabpanel" aria-labelledby={`tab-${screen}`} className={`screen screen-${screen}`}>
        {screen === 'chat' && <ChatScreen kb={kb} />}
        {screen === 'pages' && <PagesScreen kb={kb} />}
        {screen === 'folders' && (
          <div className="folders-screen">
            <FolderPanel kb={kb} />
            <IndexingPanel kb={kb} />
          </div>
        )}
      </div>
    </div>
  );
}

/** The window's shortcuts (lib/shortcuts.ts); none while a dialog is open, which keeps its keys. */
function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || document.querySelector('dialog[open]')) return;
      const { key, ctrlKey, metaKey, altKey } = e;
      const action = shortcutOf({ key, ctrlKey, metaKey, altKey, inField: isTextField(e.target) });
      if (!action) return;
      e.preventDefault();
      if (action === 'show-shortcuts') return useUi.getState().setShortcutsOpen(true);
      // The question box is on the chat screen: show it first when another screen is open.
      const field = () => document.getElementById(COMPOSER_FIELD_ID);
      if (field()) return field()!.focus();
      useUi.getState().show('chat');
      requestAnimationFrame(() => field()?.focus());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Load the knowledge bases and the settings, and keep the Ollama status fresh. */
function useStartup(load: () => Promise<void>) {
  useEffect(() => {
    void load();
    void useSettings.getState().load();
    void useLlm.getState().refresh();
    const timer = setInterval(() => void useLlm.getState().refresh(), LLM_POLL_MS);
    return () => clearInterval(timer);
  }, [load]);
}

/** Load what the selected knowledge base's screens show, whenever the selection changes. */
function useKbData(kbId: string | null) {
  useEffect(() => {
    if (!kbId) return;
    void useIngest.getState().loadFolders(kbId);
    void useIngest.getState().loadStatus(kbId);
    void usePages.getState().load(kbId);
    void useChat.getState().loadConversations(kbId);
  }, [kbId]);
}

client.subscribe('kb.changed', ({ kbId, change }) => {
  void useKbs.getState().load();
  if (change === 'folders') {
    void useIngest.getState().loadFolders(kbId);
    void useIngest.getState().loadStatus(kbId);
  }
});
