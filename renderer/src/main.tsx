import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { rememberedAppearance } from './i18n';
import { applyTheme } from './lib/theme';
import './styles.css';
import './chat.css';
import './pages.css';
import './settings.css';

// The theme of the last run, before the first paint; the settings from the core follow at once.
applyTheme(rememberedAppearance()?.theme ?? 'system');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
