/**
 * H2 2.x oracle adjustments (h2/ADJUSTMENTS.md): rewrites of a statement for H2 only, where H2
 * 2.1 rejects or computes differently what the H2 1.4 upstream used accepted. Never used to
 * excuse a Quarry answer: Quarry always runs the spec's statement unchanged.
 */

/**
 * Adjustment 3: H2 1.4 computed ROUND/TRUNCATE in doubles, so for a scale far below -308 the
 * factor 10^scale underflowed to 0 and the answer was 0/0 = NaN (what upstream compared with);
 * H2 2.x rounds NUMERICs exactly and does not finish for ROUND(-345.123, -51231231).
 */
function hugeNegativeScales(q: string): string {
  return q.replace(
    /\b(ROUND|TRUNCATE)\(\s*(-?[0-9.]+)\s*,\s*-(\d{4,})\s*\)/gi,
    "CAST('NaN' AS DOUBLE PRECISION)",
  );
}

/**
 * Adjustment 4: H2 2.x reserves YEAR, MONTH and DAY (1.4 took them as identifiers), so a bare
 * alias `AS year` is a syntax error and `expr day` even parses as an interval literal
 * (`CAST(expr AS INTERVAL DAY)`). Bare uses that are no function call, no EXTRACT field and no
 * interval qualifier (after a literal or TO) are quoted, as the identifier 1.4 read them as.
 */
function reservedAliases(q: string): string {
  return q.replace(
    /(?<![\w"'.])(?<!(?:\d|')\s+)(?<!\bTO\s+)(?<!EXTRACT\(\s*)\b(year|month|day)\b(?!\s*\()/gi,
    '"$1"',
  );
}

/** The statement as sent to H2. */
export function h2Statement(query: string): string {
  return reservedAliases(hugeNegativeScales(query));
}

/**
 * Adjustment 5: setup_test_geo.sql fills GEOMETRY columns from geo.csv text. H2 1.4 (with H2GIS)
 * converted text with JTS's WKT reader, which stops at the end of the geometry, so Mountain
 * View's geoshape `POINT (...))` (a stray parenthesis) loaded; H2 2.x's own EWKT parser rejects
 * it and the whole table. For H2 only, the CSV's geometry columns go through ST_GeomFromText
 * (JTS's reader, h2/H2Gis.java), as 1.4 read them; CSVREAD names the columns in upper case.
 */
export function h2GeoSetup(script: string): string {
  return script.replace(
    /AS SELECT \* FROM CSVREAD\(/,
    'AS SELECT "CITY", "REGION", "REGION_POINT", ST_GeomFromText("LOCATION"), ' +
      'ST_GeomFromText("GEOSHAPE"), ST_GeomFromText("SHAPE") FROM CSVREAD(',
  );
}
