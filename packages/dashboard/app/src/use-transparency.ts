/**
 * What the Transparency panel shows: the latest signed checkpoint of the organization's Merkle tree
 * (`GET …/activity/checkpoint`, owners and admins) and its witnesses. Owners also read the
 * registered witnesses (`GET …/activity/witnesses`, owner only), so a witness that has not cosigned
 * this head shows too; an admin sees the witnesses whose cosignatures the checkpoint carries.
 */
import { api } from './api.js';
import { useRequest } from './use-request.js';

/** The checkpoint as the API answers it (the fields the panel shows). */
export interface TreeCheckpoint {
  tree_size: number;
  root_hash: string;
  signed_at: string;
  key_id: string;
  verifier_key: string;
  note: string;
  cosignatures: { witness: string; timestamp: number }[];
}

/** One witness of the checkpoint: whether (and when, POSIX seconds) it cosigned this head. */
export interface WitnessRow {
  name: string;
  cosignedAt: number | null;
}

/** The panel's data; `registered` is false when the caller may not list the registered witnesses. */
export interface Transparency {
  checkpoint: TreeCheckpoint;
  witnesses: WitnessRow[];
  registered: boolean;
}

/** The witnesses by name: every registered one (when known) and every one that cosigned. */
export function witnessRows(checkpoint: TreeCheckpoint, registered: readonly string[] | null): WitnessRow[] {
  const cosigned = new Map(checkpoint.cosignatures.map((c) => [c.witness, c.timestamp]));
  const names = new Set([...(registered ?? []), ...cosigned.keys()]);
  return [...names]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ name, cosignedAt: cosigned.get(name) ?? null }));
}

async function loadTransparency(org: string, owner: boolean): Promise<Transparency> {
  const checkpoint = await api<TreeCheckpoint>('GET', `${org}/activity/checkpoint`);
  // Only owners may list the witnesses: nobody else asks, so the API never has to refuse.
  const registered = owner
    ? (await api<{ witnesses: { name: string }[] }>('GET', `${org}/activity/witnesses`)).witnesses.map(
        (w) => w.name,
      )
    : null;
  return { checkpoint, witnesses: witnessRows(checkpoint, registered), registered: owner };
}

/** Loads the panel's data for the organization at `org`; `owner` says whether to list witnesses. */
export const useTransparency = (org: string, owner: boolean) =>
  useRequest(() => loadTransparency(org, owner), `${org}/transparency:${owner}`);
