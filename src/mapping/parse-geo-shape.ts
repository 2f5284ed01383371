/**
 * geo_shape mapping parameters (ES BaseGeoShapeFieldMapper.TypeParser): orientation, coerce,
 * ignore_malformed, ignore_z_value, and the legacy prefix-tree parameters (LegacyGeoShapeFieldMapper).
 */
import type { GeoShapeParams } from './types.js';
import { illegalArgument, parseException } from './errors.js';
import { nodeBooleanValue, nodeDoubleValue, nodeIntegerValue } from './node-values.js';
import { javaToString } from './java-numbers.js';
import type { Draft, Node } from './field-draft.js';

const GEO_SHAPE_LEGACY = new Set([
  'strategy',
  'tree',
  'tree_levels',
  'precision',
  'distance_error_pct',
  'points_only',
]);

/** `shape` takes the same parameters but no legacy ones (they stay unsupported). */
export function parseGeoShape(d: Draft, node: Node, allowLegacy: boolean): void {
  let orientation: 'right' | 'left' = 'right';
  const legacy: Record<string, unknown> = {};
  let hasLegacy = false;
  for (const [prop, v] of [...node]) {
    if (GEO_SHAPE_LEGACY.has(prop)) {
      if (!allowLegacy) continue;
      hasLegacy = true;
      legacy[prop] = v;
    } else if (prop === 'orientation') {
      orientation = parseOrientation(javaToString(v));
    } else if (prop === 'ignore_malformed') {
      d.explicit.add('ignore_malformed');
      d.core.ignoreMalformed = nodeBooleanValue(v, `${d.name}.ignore_malformed`);
    } else if (prop === 'coerce') {
      d.explicit.add('coerce');
      d.core.coerce = nodeBooleanValue(v, `${d.name}.coerce`);
    } else if (prop === 'ignore_z_value') {
      d.explicit.add('ignore_z_value');
      d.core.ignoreZValue = nodeBooleanValue(v, `${d.name}.ignore_z_value`);
    } else continue;
    node.delete(prop);
  }
  const params: GeoShapeParams = { orientation };
  if (hasLegacy)
    (params as { legacy?: GeoShapeParams['legacy'] }).legacy = parseLegacyShape(d, legacy);
  d.core.geoShape = params;
}

/** ES ShapeBuilder.Orientation.fromString. */
function parseOrientation(s: string): 'right' | 'left' {
  switch (s.toLowerCase()) {
    case 'right':
    case 'counterclockwise':
    case 'ccw':
      return 'right';
    case 'left':
    case 'clockwise':
    case 'cw':
      return 'left';
    default:
      throw illegalArgument(`Unknown orientation [${s}]`);
  }
}

function parseLegacyShape(
  d: Draft,
  p: Record<string, unknown>,
): NonNullable<GeoShapeParams['legacy']> {
  const strategy = p.strategy === undefined ? 'recursive' : javaToString(p.strategy);
  if (strategy !== 'recursive' && strategy !== 'term') {
    throw illegalArgument(`Unknown strategy [${strategy}]`);
  }
  const tree = p.tree === undefined ? 'quadtree' : javaToString(p.tree);
  if (tree !== 'geohash' && tree !== 'quadtree' && tree !== 'legacyquadtree') {
    throw illegalArgument(`Unknown prefix tree type [${tree}]`);
  }
  const out: {
    -readonly [K in keyof NonNullable<GeoShapeParams['legacy']>]: NonNullable<
      GeoShapeParams['legacy']
    >[K];
  } = { tree, strategy };
  if (p.tree_levels !== undefined) out.treeLevels = nodeIntegerValue(javaToString(p.tree_levels));
  if (p.precision !== undefined)
    out.precisionMeters = parseDistanceMeters(javaToString(p.precision));
  if (p.distance_error_pct !== undefined)
    out.distanceErrorPct = nodeDoubleValue(javaToString(p.distance_error_pct));
  if (p.points_only !== undefined) {
    const po = nodeBooleanValue(p.points_only, `${d.name}.points_only`);
    if (strategy === 'term' && !po)
      throw parseException('points_only cannot be set to false for term strategy');
    out.pointsOnly = po;
  } else if (strategy === 'term') out.pointsOnly = true;
  return out;
}

const DISTANCE_UNITS: [string[], number][] = [
  [['in', 'inch'], 0.0254],
  [['yd', 'yards'], 0.9144],
  [['ft', 'feet'], 0.3048],
  [['km', 'kilometers'], 1000],
  [['NM', 'nmi', 'nauticalmiles'], 1852],
  [['mm', 'millimeters'], 0.001],
  [['cm', 'centimeters'], 0.01],
  [['mi', 'miles'], 1609.344],
  [['m', 'meters'], 1],
];

/** ES DistanceUnit.Distance.parseDistance → meters (default unit meters). */
export function parseDistanceMeters(s: string): number {
  for (const [names, factor] of DISTANCE_UNITS) {
    for (const n of names) {
      if (s.endsWith(n)) return nodeDoubleValue(s.slice(0, -n.length)) * factor;
    }
  }
  return nodeDoubleValue(s);
}
