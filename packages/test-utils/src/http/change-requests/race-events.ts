/**
 * What a race of applies and bypass pushes leaves in the chain: the counts of the five event types
 * a round can record, and the counts its outcomes call for. Shared by the HTTP suite's races (every
 * store, in one process) and PostgreSQL's races between two processes.
 */
import type { ActivityEvent } from '@latchkey/core';

/** The race's event counts among `events`. */
export function raceEventCounts(events: readonly ActivityEvent[]): Record<string, number> {
  const count = (type: string) => events.filter((e) => e.type === type).length;
  return {
    push_applied: count('push_applied'),
    push_conflict: count('push_conflict'),
    change_request_applied: count('change_request_applied'),
    change_request_conflicted: count('change_request_conflicted'),
    change_bypassed: count('change_bypassed'),
  };
}

/** The counts `rounds` rounds call for, each one winner and one conflict, by what won and lost. */
export function expectedRaceEvents(outcomes: {
  rounds: number;
  appliesWon: number;
  appliesLost: number;
  bypassesWon: number;
}): Record<string, number> {
  return {
    push_applied: outcomes.rounds,
    push_conflict: outcomes.rounds,
    change_request_applied: outcomes.appliesWon,
    change_request_conflicted: outcomes.appliesLost,
    change_bypassed: outcomes.bypassesWon,
  };
}
