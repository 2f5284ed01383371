/**
 * `geo_distance` lowered as ES 6.8 GeoDistanceQueryBuilder.doToQuery does it: a LatLonPoint
 * distance query (haversine, whatever `distance_type` says) over the field's points. Segments keep
 * no geo_point doc values, so the points come from the index context's per-segment reader.
 */
import { arcDistance } from '../../../functions/geo.js';
import type { Query } from '../../../search/query/query.js';
import type { GeoDistanceNode } from '../nodes.js';
import { matchNone } from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper, shardError } from './fields.js';

export function lowerGeoDistance(node: GeoDistanceNode, st: LowerState): Query {
  const f = fieldMapper(st.ctx, node.field);
  if (!f) {
    if (node.ignoreUnmapped) return matchNone(`unmapped field [${node.field}]`);
    throw shardError(st, `failed to find geo_point field [${node.field}]`);
  }
  if (f.typeName !== 'geo_point')
    throw shardError(st, `field [${node.field}] is not a geo_point field`);
  const read = st.ctx.geoPoints;
  if (!read) throw shardError(st, 'geo_distance queries are not supported by this index context');
  const { lat, lon, distance } = node;
  const describe = `${f.name}:${lat},${lon} +/- ${distance} meters`;
  return {
    kind: 'Predicate',
    factory: {
      describe,
      forSegment: (ls) => {
        const points = read(ls, f.name);
        return (doc) => points(doc).some((p) => arcDistance(lat, lon, p.lat, p.lon) <= distance);
      },
    },
    boost: 1,
  };
}
