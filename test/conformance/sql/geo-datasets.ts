/**
 * The geo data sets of the ES 7.10 SQL QA suites (../shared/conformance/sql/DATASETS.md, "Geo"):
 * `geo` (geo/geosql.json + geo/geosql-bulk.json) and `ogc` (ogc/ogc.mapping.json + ogc/ogc.json)
 * with its ten filtered aliases. The geo spec files run on a node that has the main data sets too,
 * as ES's GeoCsvSpecTestCase adds these indices to the shared QA cluster.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SQL_SPEC_DIR, suiteOf, type Call, type DatasetSuite } from './datasets.js';

/** The spec files that read the geo data sets. */
export const GEO_SPEC_FILES = [
  'geo/geosql',
  'docs/geo',
  'ogc/ogc',
  'single-node-only/command-sys-geo',
] as const;

export const isGeoSpec = (file: string): boolean =>
  (GEO_SPEC_FILES as readonly string[]).includes(file);

/** The node a geo spec runs on: single-node-only ones on the `integTest` cluster, the rest on main. */
export const geoSuiteOf = (file: string): DatasetSuite =>
  suiteOf(file) === 'single-node' ? 'single-node' : 'main';

const OGC_ALIASES = [
  'lakes',
  'road_segments',
  'divided_routes',
  'forests',
  'bridges',
  'streams',
  'buildings',
  'ponds',
  'named_places',
  'map_neatlines',
];

const read = (file: string): string => readFileSync(resolve(SQL_SPEC_DIR, file), 'utf8');

/** A bulk body file with `//` comment lines, which ES's loader drops before sending. */
const bulkBody = (file: string): string =>
  read(file)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('//'))
    .join('\n') + '\n';

async function load(call: Call, index: string, mapping: string, data: string): Promise<void> {
  const c = await call('PUT', `/${index}?include_type_name=false`, JSON.parse(read(mapping)));
  if (c.status !== 200) throw new Error(`create ${index}: ${c.status} ${JSON.stringify(c.body)}`);
  const r = await call('POST', `/${index}/_doc/_bulk?refresh=true`, bulkBody(data));
  const body = r.body as { errors?: boolean };
  if (r.status !== 200 || body.errors)
    throw new Error(`bulk ${index}: ${JSON.stringify(body).slice(0, 800)}`);
}

/** Creates and fills `geo` and `ogc` and the ogc aliases. */
export async function loadGeoDatasets(call: Call): Promise<void> {
  await load(call, 'geo', 'geo/geosql.json', 'geo/geosql-bulk.json');
  await load(call, 'ogc', 'ogc/ogc.mapping.json', 'ogc/ogc.json');
  const actions = OGC_ALIASES.map((alias) => ({
    add: { index: 'ogc', alias, filter: { term: { ogc_type: alias } } },
  }));
  const r = await call('POST', '/_aliases', { actions });
  if (r.status !== 200) throw new Error(`ogc aliases: ${JSON.stringify(r.body)}`);
}
