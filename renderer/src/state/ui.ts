/** Which screen of the selected knowledge base is showing, and whether the settings are open. */
import { create } from 'zustand';

/** The screens of a knowledge base. */
export type Screen = 'chat' | 'pages' | 'folders';

interface UiState {
  screen: Screen;
  /** Set when a screen should move focus to its main field once shown (e.g. "Add a folder"). */
  focusRequest: string | null;
  /** True while the settings dialog is open. */
  settingsOpen: boolean;
  /** True while the keyboard shortcuts help is open. */
  shortcutsOpen: boolean;
  setShortcutsOpen(open: boolean): void;
  show(screen: Screen, focus?: string): void;
  focusDone(): void;
  openSettings(): void;
  closeSettings(): void;
}

/** The screen store. */
export const useUi = create<UiState>((set) => ({
  screen: 'chat',
  focusRequest: null,
  settingsOpen: false,
  shortcutsOpen: false,
  setShortcutsOpen(open) {
    set({ shortcutsOpen: open });
  },
  show(screen, focus) {
    set({ screen, focusRequest: focus ?? null });
  },
  focusDone() {
    set({ focusRequest: null });
  },
  openSettings() {
    set({ settingsOpen: true });
  },
  closeSettings() {
    set({ settingsOpen: false });
  },
}));
