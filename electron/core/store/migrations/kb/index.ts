/** A knowledge-base file's migrations, in order. Add a file per version and list it here. */
import type { Migration } from '../../migrate';
import { m001 } from './001-initial';
import { m002 } from './002-pages';
import { m003 } from './003-contentless-fts';
import { m004 } from './004-keyword-vocabulary';
import { m005 } from './005-keyword-write-buffer';
import { m006 } from './006-section-keywords';
import { m007 } from './007-glossary';
import { m008 } from './008-page-versions';
import { m009 } from './009-version-evidence';
import { m010 } from './010-ocr';
import { m011 } from './011-ocr-cache-seen';
import { m012 } from './012-keyword-delete-merge';
import { m013 } from './013-keyword-totals';

export const kbMigrations: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012, m013];
