import { describe, expect, it } from 'vitest';
import { chipLabel, insertChip, messageOf, rebaseChips, removeChipAt, type ChipText } from './chips';

const deploy = { title: '部署指南', path: 'wiki/notes/部署指南.md' };
const gateway = { title: 'API Gateway', path: 'wiki/notes/gateway.md' };

/** Type `typed` at the end of the field, as the textarea would. */
function type(field: ChipText, typed: string): ChipText {
  const text = field.text.slice(0, field.caret) + typed + field.text.slice(field.caret);
  const caret = field.caret + typed.length;
  return { text, caret, chips: rebaseChips(field.chips, field.text, text, caret) };
}

describe('composer chips', () => {
  it('inserts a chip labelled with the page name and sends its reference', () => {
    let field: ChipText = { text: 'How do I prepare? @部署', chips: [], caret: 21 };
    field = insertChip(field, { start: 18, query: '部署' }, deploy);
    expect(field.text).toBe('How do I prepare? @部署指南 ');
    expect(field.caret).toBe(field.text.length);
    field = type(field, 'please');
    expect(messageOf(field.text, field.chips)).toBe('How do I prepare? [[wiki/notes/部署指南.md]] please');
  });

  it('moves chips when text is typed before them and unbinds one edited inside', () => {
    let field = insertChip({ text: '@gw', chips: [], caret: 3 }, { start: 0, query: 'gw' }, gateway);
    field = { ...field, caret: 0 };
    field = type(field, 'Compare ');
    expect(messageOf(field.text, field.chips)).toBe('Compare [[wiki/notes/gateway.md]] ');
    // Typing "@" right before the chip's own "@" is an edit before it, not inside it.
    field = type(field, '@');
    expect(field.chips).toHaveLength(1);
    expect(messageOf(field.text, field.chips)).toBe('Compare @[[wiki/notes/gateway.md]] ');
    const inside = { ...field, caret: field.chips[0]!.start + 3 };
    expect(type(inside, 'x').chips).toEqual([]);
  });

  it('removes a whole chip with Backspace at its end and Delete at its start', () => {
    const field = insertChip({ text: 'see @部 and', chips: [], caret: 6 }, { start: 4, query: '部' }, deploy);
    const end = field.chips[0]!.end;
    expect(removeChipAt({ ...field, caret: end }, false)).toEqual({ text: 'see  and', chips: [], caret: 4 });
    expect(removeChipAt({ ...field, caret: 4 }, true)).toEqual({ text: 'see  and', chips: [], caret: 4 });
    expect(removeChipAt({ ...field, caret: end + 1 }, false)).toBeNull();
  });

  it('labels a page without a title by its file name', () => {
    expect(chipLabel({ title: '', path: 'wiki/notes/gateway.md' })).toBe('@gateway');
  });
});
