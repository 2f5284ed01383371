/*
 * The ST_ functions the geo .sql-spec files and their setup scripts call, for the H2 oracle
 * (upstream's GeoSqlSpecTestCase loads H2GIS into H2 1.4; H2GIS is not packaged here, so these
 * stand in for it on H2 2.x's own GEOMETRY type, backed by JTS as H2GIS is). Each follows the
 * H2GIS function of the same name; h2/ADJUSTMENTS.md lists where H2 2.x differs.
 *
 * Loaded by H2Oracle when its first argument is --gis; needs jts-core on the classpath.
 */
import java.sql.Connection;
import java.sql.Statement;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.io.WKTWriter;

public final class H2Gis {
    private H2Gis() {}

    /** H2GIS declares its geometry column types as domains over GEOMETRY. */
    private static final String[] DOMAINS = {
        "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"
    };

    private static final String[][] ALIASES = {
        {"ST_GeomFromText", "geomFromText"},
        {"ST_WKTToSQL", "geomFromText"},
        {"ST_PointFromText", "typedFromText"},
        {"ST_LineFromText", "typedFromText"},
        {"ST_PolyFromText", "typedFromText"},
        {"ST_MPointFromText", "typedFromText"},
        {"ST_MLineFromText", "typedFromText"},
        {"ST_MPolyFromText", "typedFromText"},
        {"ST_AsText", "asText"},
        {"ST_AsWKT", "asText"},
        {"ST_GeometryType", "geometryType"},
        {"ST_X", "x"},
        {"ST_Y", "y"},
        {"ST_Z", "z"},
        {"ST_Distance", "distance"},
    };

    public static void load(Connection c) throws Exception {
        try (Statement s = c.createStatement()) {
            for (String d : DOMAINS) s.execute("CREATE DOMAIN " + d + " AS GEOMETRY(" + d + ")");
            // the spec files spell names both ways (ST_GEOMFROMTEXT, ST_GeomFromText); H2 1.4 found
            // aliases in any case, H2 2.x with DATABASE_TO_UPPER=false only in the created one
            for (String[] a : ALIASES) {
                s.execute("CREATE ALIAS " + a[0] + " FOR \"H2Gis." + a[1] + "\"");
                if (!a[0].equals(a[0].toUpperCase())) {
                    s.execute("CREATE ALIAS " + a[0].toUpperCase() + " FOR \"H2Gis." + a[1] + "\"");
                }
            }
        }
    }

    private static Geometry read(String wkt, int srid) throws ParseException {
        if (wkt == null) return null;
        Geometry g = new WKTReader(new GeometryFactory()).read(wkt);
        g.setSRID(srid);
        return g;
    }

    /** ST_GeomFromText(wkt[, srid]): JTS's WKT reader, SRID 0 unless given. */
    public static Geometry geomFromText(String wkt) throws ParseException {
        return read(wkt, 0);
    }

    public static Geometry geomFromText(String wkt, int srid) throws ParseException {
        return read(wkt, srid);
    }

    /** ST_PolyFromText and kin (the OGC setup script): the geometry with its SRID. */
    public static Geometry typedFromText(String wkt, int srid) throws ParseException {
        return read(wkt, srid);
    }

    /** ST_AsText / ST_AsWKT: JTS's WKT writer (integral coordinates without ".0"). */
    public static String asText(Geometry g) {
        return g == null ? null : new WKTWriter().write(g);
    }

    /** ST_GeometryType: JTS's type name ("Polygon", "MultiLineString", ...). */
    public static String geometryType(Geometry g) {
        return g == null ? null : g.getGeometryType();
    }

    /** ST_X/ST_Y/ST_Z: of the geometry's first coordinate, as H2GIS reads them. */
    public static Double x(Geometry g) {
        Coordinate c = first(g);
        return c == null ? null : c.x;
    }

    public static Double y(Geometry g) {
        Coordinate c = first(g);
        return c == null ? null : c.y;
    }

    public static Double z(Geometry g) {
        Coordinate c = first(g);
        return c == null || Double.isNaN(c.getZ()) ? null : c.getZ();
    }

    private static Coordinate first(Geometry g) {
        return g == null || g.isEmpty() ? null : g.getCoordinate();
    }

    /** ST_Distance: JTS's planar minimum distance. */
    public static Double distance(Geometry a, Geometry b) {
        return a == null || b == null ? null : a.distance(b);
    }
}
