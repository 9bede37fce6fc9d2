/** Every migration, in order. Append only: a released migration is never edited. */
import { initial } from './0001-initial.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [initial];
