/**
 * The conversation open in each knowledge base, remembered in this tab's sessionStorage so a reload
 * reopens it (each tab keeps its own; a new tab starts from the conversation list).
 */

const KEY = 'sift.openConversations';

/** The conversation last open in `kbId` in this tab, or null. */
export function rememberedConversation(kbId: string): string | null {
  return read()[kbId] ?? null;
}

/** Remember (or, with null, forget) the conversation open in `kbId`. */
export function rememberConversation(kbId: string, conversationId: string | null): void {
  const all = read();
  if (conversationId) all[kbId] = conversationId;
  else delete all[kbId];
  try {
    sessionStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage full or blocked: the tab simply forgets across reloads
  }
}

function read(): Record<string, string> {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}
