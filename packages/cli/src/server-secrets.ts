/**
 * An environment's secrets as the server lists them, checked before the CLI writes any of them:
 * each key by the server's own rule (`isSecretKey`), once, with a string value and a version. A
 * server that sends anything else (a key `INJ\nEVIL` would be a line of its own in a `.env` file)
 * is refused, and nothing is written.
 */
import { isSecretKey, SECRET_KEY_RULE } from '@latchkey/core/client';
import { seg } from './context.js';
import { CliError } from './exit-codes.js';
import type { HttpClient } from './http-client.js';

/** A secret as the server lists it. */
export interface ServerSecret {
  key: string;
  value: string;
  version: number;
  updated_at: string;
}

/** The API path of an environment. */
export const environmentPath = (org: string, project: string, env: string) =>
  `/organizations/${seg(org)}/projects/${seg(project)}/environments/${seg(env)}`;

const refuse = (why: string) =>
  new CliError(`The server sent an invalid list of secrets: ${why}. Nothing was written.`);

/** `answer` as a list of secrets, or a refusal naming the first thing wrong. */
function checkServerSecrets(answer: unknown): ServerSecret[] {
  const secrets = (answer as { secrets?: unknown } | null)?.secrets;
  if (!Array.isArray(secrets)) throw refuse('no secrets array');
  const seen = new Set<string>();
  for (const [index, secret] of secrets.entries()) {
    const { key, value, version, updated_at } = (secret ?? {}) as Record<string, unknown>;
    if (!isSecretKey(key)) {
      throw refuse(`the key ${JSON.stringify(key) ?? String(key)} (entry ${index}) ${SECRET_KEY_RULE}`);
    }
    if (seen.has(key)) throw refuse(`the key ${key} is listed twice`);
    seen.add(key);
    if (typeof value !== 'string') throw refuse(`the value of ${key} is not a string`);
    if (!Number.isSafeInteger(version) || (version as number) < 0) {
      throw refuse(`the version of ${key} is not a whole number`);
    }
    if (typeof updated_at !== 'string') throw refuse(`the updated_at of ${key} is not a string`);
  }
  return secrets as ServerSecret[];
}

/** The environment's secrets from the server, checked. */
export async function readServerSecrets(
  client: HttpClient,
  org: string,
  project: string,
  env: string,
): Promise<ServerSecret[]> {
  return checkServerSecrets(
    await client.json<unknown>('GET', `${environmentPath(org, project, env)}/secrets`),
  );
}
