/** Small line icons drawn inline (no icon library); always paired with an accessible name by the caller. */

const PATHS = {
  plus: 'M8 3v10M3 8h10',
  pencil: 'M3 13l1-3.5L10.5 3 13 5.5 6.5 12 3 13z',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5',
  close: 'M4 4l8 8M12 4l-8 8',
  stop: 'M4.5 4.5h7v7h-7z',
  send: 'M3 8h9M8.5 4.5L12 8l-3.5 3.5',
  folder: 'M2.5 4.5h4l1.2 1.5h5.8v6.5h-11z',
  file: 'M4 2.5h5l3 3v8H4zM9 2.5v3h3',
  chevron: 'M6 4l4 4-4 4',
  refresh: 'M12.5 6A5 5 0 1 0 13 9M12.5 2.5V6H9',
  chat: 'M3 3.5h10v7H7l-3 2.5v-2.5H3z',
  book: 'M3 3h4.5a1 1 0 0 1 1 1v9a1 1 0 0 0-1-1H3zM13 3H9.5a1 1 0 0 0-1 1v9a1 1 0 0 1 1-1H13z',
  gear: 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
  copy: 'M5.5 5.5h7v8h-7zM3.5 10.5v-8h7',
  download: 'M8 2.5v7.5M4.5 6.5L8 10l3.5-3.5M3 13.5h10',
  check: 'M3 8.5l3 3 7-7',
} as const;

/** The names of the icons. */
export type IconName = keyof typeof PATHS;

/** A 16×16 stroked icon in the current text colour; hidden from assistive technology. */
export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
