/**
 * CAST/CONVERT, DATABASE/USER, the ST_* geo functions and SCORE (ES SqlFunctionRegistry's
 * "DataType conversion", "Scalar meta", "Geo" and "Special" groups).
 */
import { DATA_TYPES, type DataTypeName } from '../../../functions/data-types.js';
import { canConvert, convert } from '../../../functions/convert.js';
import * as g from '../../../functions/geo.js';
import { def } from '../build.js';
import type { FunctionDefinition } from '../definition.js';
import { checkGeo, checkString, firstFailure } from '../type-resolutions.js';

/** Cast.resolveType: "Cannot cast [KEYWORD] to [IP]" uses the upper-case type names. */
export function resolveCast(from: DataTypeName, to: DataTypeName): string | null {
  return canConvert(from, to)
    ? null
    : `Cannot cast [${DATA_TYPES[from].name}] to [${DATA_TYPES[to].name}]`;
}

export const CAST_FUNCTIONS: readonly FunctionDefinition[] = [
  // CAST(x AS t) / CONVERT(x, t) are built by the parser with their target type; the registry
  // entry exists for SHOW FUNCTIONS. Evaluate with args [value] and ctx.resultType = target.
  def({
    names: ['CAST', 'CONVERT'],
    arity: 'one',
    dataType: (a) => a[0]!.type,
    // cast(value, 'TARGET_TYPE_NAME')
    script: 'cast',
    evaluate: ([v], ctx) => convert(v, ctx.resultType ?? 'KEYWORD', ctx.argTypes?.[0] ?? null),
  }),
];

export const META_FUNCTIONS: readonly FunctionDefinition[] = [
  def({
    names: ['DATABASE'],
    arity: 'none',
    configurationAware: true,
    dataType: 'KEYWORD',
    foldable: () => true,
    evaluate: (_a, ctx) => ctx.clusterName,
  }),
  def({
    names: ['USER'],
    arity: 'none',
    configurationAware: true,
    dataType: 'KEYWORD',
    foldable: () => true,
    evaluate: (_a, ctx) => ctx.username,
  }),
];

/** UnaryGeoFunction reports its operation name (ASWKT, X, ...) rather than the call text. */
const unaryGeo = (
  names: [string, ...string[]],
  op: string,
  method: string,
  type: DataTypeName,
  f: (v: unknown) => unknown,
) =>
  def({
    names,
    arity: 'one',
    resolve: (a) => checkGeo(a[0]!, op, 'DEFAULT'),
    dataType: type,
    script: method,
    evaluate: ([v]) => f(v),
  });

export const GEO_FUNCTIONS: readonly FunctionDefinition[] = [
  unaryGeo(['ST_ASWKT', 'ST_ASTEXT'], 'ASWKT', 'stAswkt', 'KEYWORD', g.stAsWkt),
  def({
    names: ['ST_DISTANCE'],
    arity: 'two',
    resolve: (a, src) =>
      firstFailure(
        () => checkGeo(a[0]!, src, 'FIRST'),
        () => checkGeo(a[1]!, src, 'SECOND'),
      ),
    dataType: 'DOUBLE',
    script: 'stDistance',
    evaluate: ([l, r]) => g.stDistance(l, r),
  }),
  def({
    names: ['ST_WKTTOSQL', 'ST_GEOMFROMTEXT'],
    arity: 'one',
    resolve: (a, src) => checkString(a[0]!, src, 'DEFAULT'),
    dataType: 'GEO_SHAPE',
    script: 'stWktToSql',
    evaluate: ([v]) => g.stWktToSql(v),
  }),
  unaryGeo(['ST_GEOMETRYTYPE'], 'GEOMETRY_TYPE', 'stGeometryType', 'KEYWORD', g.stGeometryType),
  unaryGeo(['ST_X'], 'X', 'stX', 'DOUBLE', g.stX),
  unaryGeo(['ST_Y'], 'Y', 'stY', 'DOUBLE', g.stY),
  unaryGeo(['ST_Z'], 'Z', 'stZ', 'DOUBLE', g.stZ),
];

export const SPECIAL_FUNCTIONS: readonly FunctionDefinition[] = [
  // SCORE() reads the hit's _score; it cannot be computed on the client nor scripted
  def({ names: ['SCORE'], type: 'SCORE', arity: 'none', dataType: 'FLOAT' }),
];
