/** A calm placeholder for a screen with nothing to show yet, saying what to do next. */
import type { ReactNode } from 'react';

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  title: string;
  children?: ReactNode;
  /** Buttons or a form for the next step. */
  action?: ReactNode;
}

/** An empty state with a heading, an explanation and an optional next step. */
export function EmptyState({ title, children, action }: EmptyStateProps) {
  return (
    <section className="empty" aria-label={title}>
      <h2>{title}</h2>
      {children && <div className="empty-text">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </section>
  );
}
