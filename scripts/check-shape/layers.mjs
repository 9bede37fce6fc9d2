// The layers of `packages/core/src`, top to bottom, in one place: ARCHITECTURE.md is written from
// this list, and the shape check holds the tree to it. A unit (a top-level folder, a file directly
// in `src/`, or an entry file declared a unit of its own) may import only units listed after it, so
// no domain folder reaches up into the HTTP layer, the routes, the wiring or the faces, and a new
// folder has to be given its place here before the check passes.

/** Core's source folder, relative to the workspace root. */
export const CORE_SOURCE = 'packages/core/src';

/** Each layer of core, top first, with its units in the order they may import one another. */
export const CORE_LAYERS = [
  {
    layer: 'faces',
    units: {
      'faces/':
        'the package entries, one file per face: main, `/node`, `/client` (and its browser build), `/store`, `/webhooks`',
    },
  },
  {
    layer: 'bridge',
    units: {
      'node/': 'the Node bridge: IncomingMessage to a core request, a core response to ServerResponse',
    },
  },
  {
    layer: 'wiring',
    units: {
      'core.ts': '`createCore`: wires the options, the store, the keyring gate, the pipeline and the engine',
      'config/': 'the options of `createCore` and their resolution into the core’s dependencies',
    },
  },
  {
    layer: 'http',
    units: {
      'routes/': 'one file per resource: method, path, permission, schemas and one call each',
      'http/': 'the pipeline, route context and table, validation, OpenAPI, views, the core’s dependencies',
    },
  },
  {
    layer: 'stores',
    units: { 'memory/': 'the embedded store: every port in memory, applying the rules core decides' },
  },
  {
    layer: 'domain',
    units: {
      'organizations/':
        'the organization’s own records: creating it, its projects and environments, members, tokens, devices',
      'portal/': 'portal sessions: what a session’s token reaches, minting, ending, the framing origin',
      'backup/': 'the backup stream and its records; the restore (session, reader, history, apply, commit)',
      'changes/': 'change requests on protected environments: create, review, expiry, apply, views',
      'client/': 'client-side checks: push signing, export, proof and checkpoint-note verification',
      'workload/':
        'workload identity: OIDC discovery and key cache behind the SSRF rules, ID token checks, the token exchange',
      'secrets/': 'the push service and its checks, the push plan, signatures, sealed values, versions',
      'schemas/': 'the API’s zod schemas (also the dashboard’s types and the OpenAPI document)',
      'delivery/': 'audit webhooks: the engine, sending, the attempt, signing, retries, the outbox rule',
      'metrics/': 'rollup math, latency histograms, windows, reports, Prometheus text',
      'activity/': 'the hash chain, sequencing, checkpoints, the event catalog, export, Merkle tree, notes',
      'auth/': 'principals, permissions, tokens, grants, the host’s authentication, bootstrap',
      'health/': '`core.ready()`, `core.health()`, and the 503 of an organization being restored',
      'telemetry/': 'OpenTelemetry spans: request, store transaction, attempt',
      'keyring/': 'sealing at rest, the start-up keyring check and gate, re-encryption',
    },
  },
  {
    layer: 'ports',
    units: { 'store/': 'the repository ports, each method’s atomicity in its TSDoc' },
  },
  {
    layer: 'leaves',
    units: {
      'model/': 'the records and the types the ports name; the core request; roles; limits',
      'encoding/': 'base64 and Ed25519 public-key parsing',
      'runtime/': 'the injected side effects’ types and defaults: ids and the logger',
      'errors/': '`LatchkeyError` and its code-to-status table, `describeError`',
    },
  },
];

/** Core's units, top first. */
export const CORE_UNITS = CORE_LAYERS.flatMap(({ units }) => Object.keys(units));

/** Core's entry files that count as units of their own (they sit inside folders they re-export). */
export const CORE_OWN_UNITS = CORE_UNITS.filter((unit) => unit.includes('/') && !unit.endsWith('/'));

/**
 * One fault per arrow of `arrows` (see `unitArrows`) that does not run down `units`, and one per
 * unit not listed: `units` is the declared order, top first.
 */
export function layerFaults(arrows, units, folder) {
  const faults = [];
  const layerOf = (unit) => CORE_LAYERS.find((l) => unit in l.units)?.layer ?? '?';
  const unlisted = new Set();
  for (const [key, imports] of arrows) {
    const [from, to] = key.split(' -> ');
    for (const unit of [from, to]) if (!units.includes(unit)) unlisted.add(unit);
    if (!units.includes(from) || !units.includes(to)) continue;
    if (units.indexOf(to) > units.indexOf(from)) continue;
    faults.push(
      `layer order in ${folder}: ${from} (${layerOf(from)}) imports ${to} (${layerOf(to)}), listed above it (${imports.length}: ${imports[0]})`,
    );
  }
  for (const unit of [...unlisted].sort()) {
    faults.push(`layer order in ${folder}: ${unit} has no place in scripts/check-shape/layers.mjs`);
  }
  return faults;
}
