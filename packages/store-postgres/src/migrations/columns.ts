/**
 * What many released tables open with, written once. Each fragment makes the text its statements
 * shipped with, byte for byte (the released migrations' SHA-256 test checks it), so a statement
 * built from one reads as the table it always was.
 */
import type { Tables } from '../schema-name.js';

/** `CREATE TABLE name (` with the table's first two columns: its id and its organization. */
export const organizationTable = (t: Tables, name: string) => `CREATE TABLE ${name} (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES ${t.organizations} (id),`;

/** A version of one key of an environment: the columns the secret's head and its history share. */
export const secretVersionColumns = (
  t: Tables,
) => `environment_id text NOT NULL REFERENCES ${t.environments} (id),
      key text NOT NULL,
      version integer NOT NULL,
      deleted boolean NOT NULL,
      value text,`;
