/**
 * The fields of the settings dialog. Each one saves itself — text and numbers when the field is
 * left or Enter is pressed, choices at once — and shows the core's reason next to it when the
 * core refuses the value (the field keeps what was typed, so it can be corrected).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Saves a value; resolves with the core's message when refused, or null once saved. */
export type Commit<V> = (value: V) => Promise<string | null>;

/** Props of {@link Field}. */
export interface FieldProps {
  id: string;
  label: string;
  /** What the setting does, its default and range; replaced by the error while there is one. */
  help?: string;
  error: string | null;
  children: ReactNode;
}

/** A labelled setting with its help or error line under it. */
export function Field({ id, label, help, error, children }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {(error || help) && (
        <p id={`${id}-note`} className={error ? 'field-error' : 'muted field-help'} role={error ? 'alert' : undefined}>
          {error ?? help}
        </p>
      )}
    </div>
  );
}

/** A draft of a saved value: follows the saved value (also when another window changes it) until edited. */
export function useDraft<V>(saved: V): [V, (v: V) => void] {
  const [draft, setDraft] = useState(saved);
  useEffect(() => setDraft(saved), [saved]);
  return [draft, setDraft];
}

/** Props of {@link TextSetting}. */
export interface TextSettingProps {
  id: string;
  label: string;
  help?: string;
  value: string;
  placeholder?: string;
  /** `number` shows a number field and commits a number; a blank or non-numeric entry is refused here. Default `text`. */
  type?: 'text' | 'number';
  onCommit: Commit<string>;
}

/** A text or number setting, saved when left or on Enter. */
export function TextSetting({ id, label, help, value, placeholder, type = 'text', onCommit }: TextSettingProps) {
  const [draft, setDraft] = useDraft(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [value]);

  async function commit() {
    if (draft === value) return setError(null);
    setError(await onCommit(draft));
  }
  return (
    <Field id={id} label={label} help={help} error={error}>
      <input
        id={id}
        type={type}
        value={draft}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error || help ? `${id}-note` : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          void commit();
        }}
      />
    </Field>
  );
}

/** Props of {@link NumberSetting}. */
export interface NumberSettingProps {
  id: string;
  label: string;
  help?: string;
  value: number;
  onCommit: Commit<number>;
}

/** A whole-number setting; the core checks its range and says what is allowed. */
export function NumberSetting({ id, label, help, value, onCommit }: NumberSettingProps) {
  const { t } = useTranslation();
  return (
    <TextSetting
      id={id}
      label={label}
      help={help}
      type="number"
      value={String(value)}
      onCommit={async (text) => {
        const n = Number(text);
        if (text.trim() === '' || !Number.isFinite(n)) return t('settings.needNumber');
        return onCommit(n);
      }}
    />
  );
}

/** Props of {@link SelectSetting}. */
export interface SelectSettingProps<V extends string> {
  id: string;
  label: string;
  help?: string;
  value: V;
  /** `[value, label]` pairs, in order. */
  options: readonly (readonly [V, string])[];
  onCommit: Commit<V>;
}

/** A choice, saved as soon as it changes. */
export function SelectSetting<V extends string>({ id, label, help, value, options, onCommit }: SelectSettingProps<V>) {
  const [error, setError] = useState<string | null>(null);
  return (
    <Field id={id} label={label} help={help} error={error}>
      <select
        id={id}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error || help ? `${id}-note` : undefined}
        onChange={(e) => void onCommit(e.target.value as V).then(setError)}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}
