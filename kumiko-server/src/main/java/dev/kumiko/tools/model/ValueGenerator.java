package dev.kumiko.tools.model;

import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.tools.model.Model.Attribute;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Deterministic attribute values: the same model, seed and ordinal always give the same value, so two
 * runs of a check measure the same data. Each value is returned in wire form ({"S": ...}) with its text,
 * which is what a key template inserts.
 */
final class ValueGenerator {
    /** Generated times start here (2026-01-01T00:00:00Z) so that they sort and look like real data. */
    static final long BASE_EPOCH_SECONDS = 1_767_225_600L;

    private static final long STEP_SECONDS_DEFAULT = 60;
    private static final long TTL_SECONDS_DEFAULT = 86_400;
    private static final int LIST_COUNT_DEFAULT = 3;
    private static final int TEXT_LENGTH_DEFAULT = 100;
    private static final int TEXT_LENGTH_MAX = 400 * 1024;
    private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** One generated value: wire form and the text a key template uses. */
    record Value(Map<String, Object> wire, String text) {
        static Value s(String s) {
            return new Value(Map.of("S", s), s);
        }

        static Value n(String n) {
            return new Value(Map.of("N", n), n);
        }
    }

    private final long seed;
    private final long nowEpochSeconds;

    ValueGenerator(long seed, long nowEpochSeconds) {
        this.seed = seed;
        this.nowEpochSeconds = nowEpochSeconds;
    }

    /** The value of attribute {@code a} for value index {@code index}; {@code ordinal} is the item's place in its collection. */
    Value value(Attribute a, long index, int ordinal) {
        Map<String, Object> o = a.options();
        if (o.get("value") != null) {
            return literal(o.get("value"));
        }
        if (o.get("values") instanceof List<?> values && !values.isEmpty()) {
            return literal(values.get((int) Math.floorMod(index, (long) values.size())));
        }
        SplittableRandom random = random(a.name(), index);
        long step = option(o, "stepSeconds", STEP_SECONDS_DEFAULT);
        switch (a.type()) {
            case "string": {
                String prefix = o.get("prefix") instanceof String p ? p : a.name() + "-";
                return Value.s(prefix + String.format("%06d", index));
            }
            case "id":
                return Value.s(uuid(random));
            case "ulid":
                return Value.s(ulid((BASE_EPOCH_SECONDS + index * step) * 1000, random));
            case "timestamp":
                return Value.s(ISO_MILLIS.format(Instant.ofEpochSecond(BASE_EPOCH_SECONDS + index * step)));
            case "epochSeconds":
                return Value.n(Long.toString(BASE_EPOCH_SECONDS + index * step));
            case "epochMillis":
                return Value.n(Long.toString((BASE_EPOCH_SECONDS + index * step) * 1000));
            case "number": {
                long min = option(o, "min", 0);
                long max = option(o, "max", 1000);
                return Value.n(Long.toString(min + random.nextLong(Math.max(1, max - min + 1))));
            }
            case "sequence":
                return Value.n(Long.toString(option(o, "start", 1) + ordinal / Math.max(1, option(o, "every", 1))));
            case "boolean":
                return new Value(Map.of("BOOL", index % 2 == 0), Boolean.toString(index % 2 == 0));
            case "ttl":
                return Value.n(Long.toString(nowEpochSeconds + option(o, "seconds", TTL_SECONDS_DEFAULT)));
            case "stringList":
                return list(random, (int) option(o, "count", LIST_COUNT_DEFAULT), "L");
            case "stringSet":
                return list(random, (int) option(o, "count", LIST_COUNT_DEFAULT), "SS");
            case "text":
                return Value.s(text(random, (int) Math.min(TEXT_LENGTH_MAX, option(o, "length", TEXT_LENGTH_DEFAULT))));
            default:
                throw new ModelError("attribute " + a.name() + ": type " + a.type() + " has no generator here");
        }
    }

    /** A filler string of exactly {@code length} ASCII characters (1 byte each, so the item size is exact). */
    static Value filler(int length) {
        return Value.s("x".repeat(length));
    }

    private static Value literal(Object v) {
        if (v instanceof String s) {
            return Value.s(s);
        }
        if (v instanceof Boolean b) {
            return new Value(Map.of("BOOL", b), b.toString());
        }
        Double d = Json.number(v);
        if (d != null) {
            String text = v instanceof JsonNumber n ? n.text() : v.toString();
            return Value.n(text);
        }
        throw new ModelError("an attribute value must be a string, number or boolean: " + v);
    }

    private static Value list(SplittableRandom random, int count, String type) {
        List<Object> elements = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < Math.max(1, count); i++) {
            String s = uuid(random);
            texts.add(s);
            elements.add(type.equals("L") ? Map.of("S", s) : s);
        }
        return new Value(Map.of(type, elements), String.join(",", texts));
    }

    private SplittableRandom random(String name, long index) {
        long h = seed * 0x9E3779B97F4A7C15L + name.hashCode();
        return new SplittableRandom(h * 31 + index);
    }

    private static long option(Map<String, Object> o, String name, long dflt) {
        Double d = Json.number(o.get(name));
        return d == null ? dflt : d.longValue();
    }

    private static String uuid(SplittableRandom r) {
        String hex = String.format("%016x%016x", r.nextLong(), r.nextLong());
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-4" + hex.substring(13, 16) + "-a"
                + hex.substring(17, 20) + "-" + hex.substring(20, 32);
    }

    /** A ULID: 48-bit millisecond time then 80 random bits, Crockford base32, so it sorts by time. */
    private static String ulid(long epochMillis, SplittableRandom r) {
        char[] out = new char[26];
        long time = epochMillis;
        for (int i = 9; i >= 0; i--) {
            out[i] = CROCKFORD.charAt((int) (time & 31));
            time >>>= 5;
        }
        for (int i = 10; i < 26; i++) {
            out[i] = CROCKFORD.charAt(r.nextInt(32));
        }
        return new String(out);
    }

    private static String text(SplittableRandom r, int length) {
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() < length) {
            sb.append(sb.length() % 7 == 6 ? ' ' : (char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }
}
