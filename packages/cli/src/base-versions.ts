/**
 * What the CLI last saw of an environment (per server and organization, in `state.json`, mode
 * 0600): each key's version and value as `pull` wrote it or a `push` left it. `push` compares the
 * file against it to send only what changed, with the version each change is based on, and
 * `push --rebase` shows it as the "base" of a three-way view. The values are the same ones the
 * pulled file holds; they stay in the user's private config directory.
 */
import type { ConfigStore } from './config.js';

export interface SeenSecret {
  version: number;
  value: string;
}

export type Base = Record<string, SeenSecret>;

const scopeKey = (project: string, env: string) => `${project}/${env}`;

/** The base of `project/env`, or undefined when this machine never pulled it. */
export function readBase(
  config: ConfigStore,
  url: string,
  org: string,
  project: string,
  env: string,
): Base | undefined {
  return config.state(url, org).versions?.[scopeKey(project, env)];
}

/** Replaces the base of `project/env` (after a pull). */
export function writeBase(
  config: ConfigStore,
  url: string,
  org: string,
  project: string,
  env: string,
  base: Base,
): void {
  config.updateState(url, org, (state) => {
    state.versions ??= {};
    state.versions[scopeKey(project, env)] = base;
  });
}

/** Moves the base of `project/env` on by what a push wrote: new versions, deleted keys gone. */
export function advanceBase(
  config: ConfigStore,
  where: { url: string; org: string; project: string; env: string },
  written: { key: string; value?: string; delete?: true; version?: number }[],
): void {
  config.updateState(where.url, where.org, (state) => {
    state.versions ??= {};
    const base = state.versions[scopeKey(where.project, where.env)] ?? {};
    for (const write of written) {
      if (write.delete) delete base[write.key];
      else if (write.version !== undefined && write.value !== undefined) {
        base[write.key] = { version: write.version, value: write.value };
      }
    }
    state.versions[scopeKey(where.project, where.env)] = base;
  });
}
