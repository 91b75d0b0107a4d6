/** The app database's migrations, in order. Add a file per version and list it here. */
import type { Migration } from '../../migrate';
import { m001 } from './001-initial';
import { m002 } from './002-folder-prefix';
import { m003 } from './003-folder-follow-links';
import { m004 } from './004-kb-digests';

export const appMigrations: readonly Migration[] = [m001, m002, m003, m004];
