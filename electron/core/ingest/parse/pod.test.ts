/**
 * Perl's documentation, POD (`.pod` files, and the POD in a Perl module): its commands give the headings and the
 * NAME section the title, so each of perldiag's messages and each of a module's functions is a section a search
 * can land on, and a module's code comments are no titles. The text itself stays as written.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSections } from '../../text/chunk';
import { tempDir } from '../../testing/temp';
import { call, makeKb, openCore, writeFiles } from '../testing/fixtures';
import { parseFile } from './index';
import { holdsPod, podHeadings, podText } from './pod';

/** Shaped like perl's perldiag.pod: messages as items of one list, a few sharing one explanation. */
const DIAGNOSTICS = [
  '=encoding utf8',
  '',
  '=head1 NAME',
  '',
  'perldiag - various Perl diagnostics',
  '',
  '=head1 DESCRIPTION',
  '',
  'These messages are classified as follows (listed in increasing order of desperation):',
  '',
  '=over 4',
  '',
  '=item *',
  '',
  'A bullet, not a message.',
  '',
  '=back',
  '',
  '=over 4',
  '',
  '=item Can\'t locate %s',
  '',
  '(F) You said to C<do> (or C<require>, or C<use>) a file that couldn\'t be found. Perl looks for the file in',
  'all the locations mentioned in @INC, unless the file name included the full path to the file.',
  '',
  '=item Can\'t locate object method "%s" via package "%s" (perhaps you forgot',
  'to load "%s"?)',
  '',
  '(F) You called a method on a class that did not exist, and the method could not be found in UNIVERSAL.',
  '',
  '=item Deep recursion on anonymous subroutine',
  '',
  '=item Deep recursion on subroutine "%s"',
  '',
  '(W recursion) This subroutine has called itself (directly or indirectly) 100 times more than it has returned.',
  '',
  '=item Odd number of elements in anonymous hash',
  '',
  '(W misc) You specified an odd number of elements to initialize a hash, which is odd, because hashes come in',
  'key/value pairs.',
  '',
  '=item Odd number of elements in hash assignment',
  '',
  '(W misc) You specified an odd number of elements to initialize a hash, which is odd, because hashes come in',
  'key/value pairs.',
  '',
  '=item Odd name/value argument for subroutine \'%s\'',
  '',
  '(F) A subroutine using a slurpy hash parameter in its signature received an odd number of arguments to',
  'populate the hash. It requires the arguments to be paired, with the same number of keys as values.',
  '',
  '=back',
  '',
  '=begin html',
  '',
  '=head1 Not a heading: HTML for another formatter',
  '',
  '=end html',
  '',
  '=cut',
  '',
].join('\n');

/** Shaped like a module from perl's library: code first, with comments a plain-text reading took for titles, then POD. */
const MODULE = [
  'package File::Scratch;',
  '# vim: ts=2 sts=2 sw=2 et:',
  '',
  '# ------------------------------------------------',
  '# INTERNAL ROUTINES',
  '# ------------------------------------------------',
  '',
  'sub _gettemp { my ($template) = @_; return $template }',
  '',
  '=head2 _gettemp',
  '',
  'Internal: fills in a template.',
  '',
  '=cut',
  '',
  'sub tempfile { _gettemp(@_) }',
  '',
  '1;',
  '',
  '__END__',
  '',
  '=head1 NAME',
  '',
  'File::Scratch - return name and handle of a I<scratch> file safely',
  '',
  '=head1 FUNCTIONS',
  '',
  '=over 4',
  '',
  '=item B<tempfile>',
  '',
  'This is the basic function to generate scratch files: C<< ($fh, $name) = tempfile() >>. See',
  'L<the MKTEMP section|/"MKTEMP FUNCTIONS"> and L<File::Spec/tmpdir>.',
  '',
  '=back',
  '',
  '=cut',
  '',
].join('\n');

const texts = (text: string) => podHeadings(text).headings.map((h) => [h.level, h.text]);

describe('POD, Perl\'s documentation', () => {
  it('reads =head levels and the items that name something one level below, a bullet or a run of items once', () => {
    expect(texts(DIAGNOSTICS)).toEqual([
      [1, 'NAME'],
      [1, 'DESCRIPTION'],
      [2, 'Can\'t locate %s'],
      [2, 'Can\'t locate object method "%s" via package "%s" (perhaps you forgot to load "%s"?)'],
      [2, 'Deep recursion on anonymous subroutine'],
      [2, 'Odd number of elements in anonymous hash'],
      [2, 'Odd number of elements in hash assignment'],
      [2, 'Odd name/value argument for subroutine \'%s\''],
    ]);
    expect(podHeadings(DIAGNOSTICS).title).toBe('perldiag - various Perl diagnostics');
  });

  it('gives each heading the span of its command paragraph, a title that wraps included', () => {
    for (const h of podHeadings(DIAGNOSTICS).headings) {
      const span = DIAGNOSTICS.slice(h.start, h.end);
      expect(span.startsWith('=')).toBe(true);
      expect(span.endsWith('\n')).toBe(false);
      expect(span.replace(/^=\w+\s+/, '').replace(/\s+/g, ' ')).toBe(h.text);
    }
  });

  it('reads a module\'s POD, not its code: comments are no titles, and the NAME line titles the page', async () => {
    expect(texts(MODULE)).toEqual([[2, '_gettemp'], [1, 'NAME'], [1, 'FUNCTIONS'], [2, 'tempfile']]);
    const doc = await parseFile('lib/File/Scratch.pm', Buffer.from(MODULE));
    expect(doc.text).toBe(MODULE);
    expect(doc.title).toBe('File::Scratch - return name and handle of a scratch file safely');
    const sections = buildSections(doc.text, doc.headings);
    const tempfile = sections.find((s) => doc.text.slice(s.start, s.end).includes('basic function'));
    expect(tempfile?.headingPath).toEqual(['FUNCTIONS', 'tempfile']);
  });

  it('reads what a bullet names, on its line or in its one-line first paragraph, as a heading when prose explains it', () => {
    const options = [
      '=head2 Configuration Variables or Methods',
      '',
      '=over 4',
      '',
      '=item * $Data::Dumper::Indent I<or> $I<OBJ>->Indent(I<[NEWVAL]>)',
      '',
      'Controls the style of indentation.',
      '',
      '=item *',
      '',
      '$Data::Dumper::Sortkeys  I<or>  $I<OBJ>->Sortkeys(I<[NEWVAL]>)',
      '',
      'Can be set to a boolean value to control whether hash keys are dumped in sorted order.',
      '',
      '=item *',
      '',
      'This almost never does what you expect:',
      '',
      '    $Data::Dumper::Sortkeys = 2;',
      '',
      '=item *',
      '',
      'Short point, said in one line.',
      '',
      '=item * Freezer',
      '',
      '=back',
      '',
      '=head2 Authors',
      '',
      '=over 4',
      '',
      '=item * Gurusamy Sarathy',
      '',
      '=item * Someone Else',
      '',
      '=item 1.',
      '',
      'A numbered step.',
      '',
      '=back',
      '',
    ].join('\n');
    expect(texts(options)).toEqual([
      [2, 'Configuration Variables or Methods'],
      [3, '$Data::Dumper::Indent or $OBJ->Indent([NEWVAL])'],
      [3, '$Data::Dumper::Sortkeys or $OBJ->Sortkeys([NEWVAL])'],
      [2, 'Authors'],
    ]);
    // A bare bullet's heading runs from its =item to the line that names it, so no section ends in a stray bullet.
    const sortkeys = podHeadings(options).headings[2]!;
    expect(options.slice(sortkeys.start, sortkeys.end)).toBe('=item *\n\n$Data::Dumper::Sortkeys  I<or>  $I<OBJ>->Sortkeys(I<[NEWVAL]>)');
  });

  it('titles a page by the paragraph right after NAME only', () => {
    expect(podHeadings('=head1 NAME\n\n=over 4\n\n=item options\n\nText.\n\n=back\n\n=cut\n').title).toBeNull();
    expect(podHeadings('=pod\n\nIntro.\n\n=head1 NAME\n\nB<Foo::Bar> - does a thing\n\n=cut\n').title).toBe('Foo::Bar - does a thing');
  });

  it('reads formatting codes as the text they show', () => {
    expect(podText('C<< $a <=> $b >> and C<$x<$y> and B<C<nested>>')).toBe('$a <=> $b and $x<$y and nested');
    expect(podText('L<the docs|perlfunc/open>, L<perlfunc/"open">, L</Options>, L<File::Temp>')).toBe('the docs, "open" in perlfunc, Options, File::Temp');
    expect(podText('E<lt>fileE<gt> E<verbar> E<0x41>E<66> E<constructor> X<index entry>Z<>done S<no break>')).toBe('<file> | AB constructor done no break');
    expect(podText('I<unclosed')).toBe('unclosed');
  });

  it('knows POD by its commands, not by one stray line', () => {
    expect(holdsPod(DIAGNOSTICS)).toBe(true);
    expect(holdsPod(MODULE)).toBe(true);
    expect(holdsPod('Notes\n\n=head1 is how POD starts a section, we said.\n')).toBe(false);
    expect(holdsPod('a = b\n=cut\n')).toBe(false);
  });

  it('finds a message as its own section: a search lands on its explanation, cited under its heading', async () => {
    const root = fs.realpathSync(tempDir());
    writeFiles(root, { 'pod/perldiag.pod': DIAGNOSTICS, 'lib/File/Scratch.pm': MODULE });
    const sift = openCore(tempDir());
    try {
      const kb = await makeKb(sift, 'perl', [root]);
      expect((await sift.ingest(kb)).state).toBe('done');
      const pages = await call(sift, 'pages.list', { kb });
      expect(pages.map((p) => p.title).sort()).toEqual(['File::Scratch - return name and handle of a scratch file safely', 'perldiag - various Perl diagnostics']);
      const found = await call(sift, 'search.query', { kb, query: 'Odd number of elements in hash assignment', mode: 'keyword' });
      const top = found.passages[0]!;
      expect(top.provenance.headingPath).toEqual(['DESCRIPTION', 'Odd number of elements in hash assignment']);
      expect(top.text.startsWith('=item Odd number of elements in hash assignment')).toBe(true);
      expect(top.text).not.toContain('anonymous hash');
    } finally {
      await sift.close();
    }
  }, 40_000);
});
