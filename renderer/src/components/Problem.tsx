/** An error message next to what failed, announced to screen readers; nothing when there is none. */

/** Props of {@link Problem}. */
export interface ProblemProps {
  message: string | null | undefined;
  /** For `aria-describedby` on the field it is about. Default none. */
  id?: string;
}

/** A `role="alert"` paragraph with the message, or nothing. */
export function Problem({ message, id }: ProblemProps) {
  return message ? (
    <p id={id} role="alert" className="field-error">
      {message}
    </p>
  ) : null;
}
