/*
 * The H2 side of the .sql-spec oracle (ES SqlSpecTestCase runs each statement on an in-memory H2
 * loaded from the setup_*.sql scripts and on Elasticsearch, then compares the result sets).
 *
 * Usage: java -Duser.timezone=UTC -cp <classes>:h2.jar:<spec dir> H2Oracle setup_test_emp.sql ...
 * The scripts (and the CSV files they read through classpath:/) come from the classpath; a first
 * argument --gis loads the ST_ functions of H2Gis (the geo spec files) before them. Then one
 * statement per stdin line; for each, one JSON line on stdout:
 *   {"columns":[{"name":"g","type":"VARCHAR","jdbc":12}],"rows":[["F"],...]}  or  {"error":"..."}
 * Integers and decimals print as JSON numbers, doubles as numbers or "NaN"/"Infinity" strings,
 * timestamps/dates as epoch milliseconds (UTC), times as milliseconds of the day, geometries as
 * their WKT without SRID (the text of the JTS Geometry H2 hands out, as upstream's JdbcAssert reads).
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;

public final class H2Oracle {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (Connection c = DriverManager.getConnection(
                "jdbc:h2:mem:essql;DATABASE_TO_UPPER=false", "sa", "")) {
            for (String script : args) {
                if (script.equals("--gis")) {
                    // by name: only the geo runs compile H2Gis (it needs jts-core)
                    Class.forName("H2Gis").getMethod("load", Connection.class).invoke(null, c);
                    continue;
                }
                try (Statement s = c.createStatement()) {
                    s.execute("RUNSCRIPT FROM 'classpath:/" + script + "'");
                }
            }
            out.println("{\"ready\":true}");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                out.println(run(c, line));
            }
        }
    }

    private static String run(Connection c, String sql) {
        StringBuilder b = new StringBuilder();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            b.append("{\"columns\":[");
            for (int i = 1; i <= n; i++) {
                if (i > 1) b.append(',');
                b.append("{\"name\":").append(str(md.getColumnLabel(i)))
                    .append(",\"type\":").append(str(md.getColumnTypeName(i)))
                    .append(",\"jdbc\":").append(md.getColumnType(i)).append('}');
            }
            b.append("],\"rows\":[");
            boolean first = true;
            while (rs.next()) {
                b.append(first ? "[" : ",[");
                first = false;
                for (int i = 1; i <= n; i++) {
                    if (i > 1) b.append(',');
                    b.append(value(rs, i, md.getColumnType(i)));
                }
                b.append(']');
            }
            return b.append("]}").toString();
        } catch (Exception e) {
            return "{\"error\":" + str(String.valueOf(e.getMessage())) + "}";
        }
    }

    private static String value(ResultSet rs, int i, int type) throws Exception {
        Object o = rs.getObject(i);
        if (o == null) return "null";
        switch (type) {
            case Types.TINYINT: case Types.SMALLINT: case Types.INTEGER: case Types.BIGINT:
                return Long.toString(rs.getLong(i));
            case Types.NUMERIC: case Types.DECIMAL:
                return rs.getBigDecimal(i).toPlainString();
            case Types.REAL: case Types.FLOAT: case Types.DOUBLE: {
                double d = rs.getDouble(i);
                return Double.isNaN(d) || Double.isInfinite(d) ? str(Double.toString(d)) : Double.toString(d);
            }
            case Types.BOOLEAN:
                return Boolean.toString(rs.getBoolean(i));
            case Types.TIMESTAMP_WITH_TIMEZONE:
                return Long.toString(rs.getObject(i, OffsetDateTime.class).toInstant().toEpochMilli());
            case Types.TIMESTAMP:
                return Long.toString(rs.getTimestamp(i).getTime());
            case Types.DATE:
                return Long.toString(rs.getObject(i, LocalDate.class).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli());
            case Types.TIME:
                return Long.toString(rs.getObject(i, LocalTime.class).toNanoOfDay() / 1_000_000);
            case Types.TIME_WITH_TIMEZONE: {
                OffsetTime t = rs.getObject(i, OffsetTime.class);
                return Long.toString(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalTime().toNanoOfDay() / 1_000_000);
            }
            default:
                // a JTS Geometry's text is its WKT without the SRID H2's getString adds
                return str(o.getClass().getName().startsWith("org.locationtech.jts.") ? o.toString() : rs.getString(i));
        }
    }

    private static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int k = 0; k < s.length(); k++) {
            char ch = s.charAt(k);
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }
}
