/**
 * Geohash cell arithmetic used by geo contexts of completion fields (ES GeoHashUtils.neighbor /
 * addNeighbors and GeoUtils.geoHashLevelsForPrecision / geoHashCellSize): the cells around a cell
 * and the geohash length whose cells fit a distance.
 */

const BASE_32 = '0123456789bcdefghjkmnpqrstuvwxyz';

/** WGS 84 equator length and polar distance in meters (ES GeoUtils). */
const EARTH_EQUATOR = 2 * Math.PI * 6378137.0;
const EARTH_POLAR_DISTANCE = Math.PI * 6356752.314245;

/** The cell character at grid coordinates (x over 8 columns, y over 4 rows; wraps around). */
function cellChar(x: number, y: number): string {
  return BASE_32[((x & 1) + (y & 1) * 2 + (x & 2) * 2 + (y & 2) * 4 + (x & 4) * 4) % 32]!;
}

/**
 * The geohash of the cell next to `geohash` (at `level`) by dx/dy in -1..1, or null past a pole.
 * Each level alternates an 8×4 and a 4×8 grid, so x and y swap meaning on even levels.
 */
export function geohashNeighbor(
  geohash: string,
  level: number,
  dx: number,
  dy: number,
): string | null {
  const cell = BASE_32.indexOf(geohash[level - 1]!);
  const x = (cell & 1) + (cell & 4) / 2 + (cell & 16) / 4;
  const y = (cell & 2) / 2 + (cell & 8) / 4;
  if (level === 1) {
    if ((dy < 0 && y === 0) || (dy > 0 && y === 3)) return null;
    return cellChar(x + dx, y + dy);
  }
  const nx = level % 2 === 1 ? x + dx : x + dy;
  const ny = level % 2 === 1 ? y + dy : y + dx;
  if (nx >= 0 && nx <= 7 && ny >= 0 && ny <= 3)
    return geohash.slice(0, level - 1) + cellChar(nx, ny);
  const parent = geohashNeighbor(geohash, level - 1, dx, dy);
  return parent === null ? null : parent + cellChar(nx, ny);
}

/** The (up to 8) cells around `geohash`, in ES's order: north row, sides, south row. */
export function geohashNeighbors(geohash: string): string[] {
  const n = geohash.length;
  const out: string[] = [];
  const south = geohashNeighbor(geohash, n, 0, -1);
  const north = geohashNeighbor(geohash, n, 0, 1);
  const push = (h: string | null) => {
    if (h !== null) out.push(h);
  };
  if (north !== null) {
    push(geohashNeighbor(north, n, -1, 0));
    out.push(north);
    push(geohashNeighbor(north, n, 1, 0));
  }
  push(geohashNeighbor(geohash, n, -1, 0));
  push(geohashNeighbor(geohash, n, 1, 0));
  if (south !== null) {
    push(geohashNeighbor(south, n, -1, 0));
    out.push(south);
    push(geohashNeighbor(south, n, 1, 0));
  }
  return out;
}

function cellWidth(level: number): number {
  return EARTH_EQUATOR / 2 ** (Math.trunc((level + 1) / 2) * 3 + Math.trunc(level / 2) * 2);
}

function cellHeight(level: number): number {
  return EARTH_POLAR_DISTANCE / 2 ** (Math.trunc((level + 1) / 2) * 2 + Math.trunc(level / 2) * 3);
}

/** The diagonal of a geohash cell at `level`, in meters. */
export function geohashCellSize(level: number): number {
  const w = cellWidth(level);
  const h = cellHeight(level);
  return Math.sqrt(w * w + h * h);
}

/** The geohash length whose cells are no larger (diagonally) than `meters`. */
export function geohashLevelsForPrecision(meters: number): number {
  if (meters === 0) return 24; // GeohashPrefixTree's maximum
  const ratio = 1 + EARTH_POLAR_DISTANCE / EARTH_EQUATOR;
  const width = Math.sqrt((meters * meters) / (ratio * ratio));
  const part = Math.ceil(EARTH_EQUATOR / width);
  if (part === 1) return 1;
  const bits = Math.round(Math.ceil(Math.log(part) / Math.log(2)));
  const full = Math.trunc(bits / 5);
  const left = bits - full * 5;
  return full + (left > 0 ? 1 : 0) + full + (left > 3 ? 1 : 0);
}

/**
 * A geo context mapping's precision given in meters: the level for that distance, one coarser
 * when its cells are still smaller than asked (so a query may return more, never fewer).
 */
export function geoContextLevelForMeters(meters: number): number {
  let level = geohashLevelsForPrecision(meters);
  if (geohashCellSize(level) < meters) level = Math.max(1, level - 1);
  return level;
}
