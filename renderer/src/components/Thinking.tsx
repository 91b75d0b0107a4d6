/**
 * A reasoning model's thinking, folded under its answer: "Thought for 12 s" opens to the reasoning as the model wrote
 * it (plain text: it is scratch work, not an answer, so nothing in it becomes a link or a citation). While the turn
 * streams it reads "Thinking…".
 */
import { useTranslation } from 'react-i18next';

/** Props of {@link Thinking}. */
export interface ThinkingProps {
  text: string;
  /** How long the model reasoned, ms; null while it still streams. */
  ms: number | null;
}

/** The folded reasoning of one answer (nothing when there is none). */
export function Thinking({ text, ms }: ThinkingProps) {
  const { t } = useTranslation();
  if (!text.trim()) return null;
  const seconds = ms === null ? null : Math.max(1, Math.round(ms / 1000));
  return (
    <details className="thinking-block">
      <summary>{seconds === null ? t('chat.thinkingLive') : t('chat.thoughtFor', { count: seconds })}</summary>
      <div className="thinking-text">{text.trim()}</div>
    </details>
  );
}
