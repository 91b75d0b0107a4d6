import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { lacksHostToken } from './client';
import { rememberedAppearance } from './i18n';
import { applyTheme } from './lib/theme';
import './styles.css';
import './chat.css';
import './pages.css';
import './settings.css';

// The theme of the last run, before the first paint; the settings from the core follow at once.
applyTheme(rememberedAppearance()?.theme ?? 'system');

// A tab without the host's token keeps the host's note on how to open Sift (no app to run).
if (!lacksHostToken) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
