/**
 * Whether the events of an export belong to the organization it is verified as. Each event names
 * its organization and that name is under the event's hash, so an intact export of one
 * organization cannot be passed off as another's.
 *
 * One exception is part of the chain's own record: a backup restored into another organization
 * keeps its source's events verbatim (they name the source), and the `backup_restored` event
 * appended right after them names this organization and, in `data.source.organization`, the
 * source. A run of events naming another organization therefore passes only when the event that
 * ends it is this organization's `backup_restored` of exactly that source.
 */
import type { ActivityEvent } from '../model/model.js';

/** A line that names another organization, and why it fails. */
export interface ForeignLine {
  line: number;
  message: string;
}

interface Run {
  line: number;
  seq: number;
  /** The organization the run's first and last events name. */
  first: string;
  last: string;
}

/** The organization a `backup_restored` event says its restored events came from. */
function sourceOf(event: ActivityEvent): unknown {
  const source = (event.data as { source?: { organization?: unknown } } | undefined)?.source;
  return typeof source === 'object' && source !== null ? source.organization : undefined;
}

/** Follows the events of an export, in order, against the organization it should be of. */
export class OrganizationCheck {
  #run: Run | null = null;

  constructor(readonly organization: string) {}

  /** Takes the next event; answers the first line of a foreign run that this event cannot close. */
  event(event: ActivityEvent, line: number): ForeignLine | null {
    const named = event.organization;
    if (typeof named !== 'string') {
      return { line, message: `Event seq ${event.seq} names no organization.` };
    }
    if (named !== this.organization) {
      if (this.#run) this.#run.last = named;
      else this.#run = { line, seq: event.seq, first: named, last: named };
      return null;
    }
    const run = this.#run;
    this.#run = null;
    if (!run || (event.type === 'backup_restored' && sourceOf(event) === run.last)) return null;
    return this.#foreign(run);
  }

  /** At the end of the export: a foreign run no `backup_restored` closed, if any. */
  end(): ForeignLine | null {
    return this.#run ? this.#foreign(this.#run) : null;
  }

  #foreign(run: Run): ForeignLine {
    return {
      line: run.line,
      message: `Event seq ${run.seq} is of organization ${JSON.stringify(run.first)}, not ${JSON.stringify(this.organization)}.`,
    };
  }
}
