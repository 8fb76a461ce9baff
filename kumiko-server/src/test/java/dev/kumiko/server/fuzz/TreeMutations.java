package dev.kumiko.server.fuzz;

import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Structure-aware mutations of a JSON tree (as JsonTree reads it): swap a value's type, drop or
 * add a member, rename a key, nest deeply, put in huge strings and numbers, duplicate set members.
 * Byte mutations mostly produce JSON syntax errors; these reach the request readers, the attribute
 * validator and the engine behind them.
 */
final class TreeMutations {
    /** Type keys and request members, so that added or renamed members are ones the readers know. */
    private final List<String> dictionary;

    private final List<Object> scalars;

    TreeMutations(List<String> dictionary) {
        this.dictionary = List.copyOf(dictionary);
        this.scalars = List.of(
                "",
                "x",
                "PK",
                "SK",
                "fuzz",
                "#n",
                ":v",
                "ALL_NEW",
                "PAY_PER_REQUEST",
                "S",
                "N",
                "HASH",
                "RANGE",
                "EQ",
                "BETWEEN",
                "TOTAL",
                "SIZE",
                "KEYS_ONLY",
                "123",
                "-1e-130",
                "1e126",
                "1e127",
                "9".repeat(39),
                "0." + "0".repeat(200) + "1",
                "NaN",
                "-",
                "\u00e9\u4e2d\ud83d\ude00",
                "AAAA",
                "====",
                "attribute_exists(PK)",
                "SET a = :v",
                "a, b[0].c",
                new JsonNumber("0"),
                new JsonNumber("-1"),
                new JsonNumber("2147483648"),
                new JsonNumber("9223372036854775808"),
                new JsonNumber("1.5"),
                new JsonNumber("1e400"),
                true,
                false,
                JsonNull.INSTANCE);
    }

    @SuppressWarnings("unchecked")
    static Object copy(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) m).forEach((k, x) -> out.put(k, copy(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(copy(x)));
            return out;
        }
        return v;
    }

    /** One to three mutations of a copy of tree. */
    Object mutate(SplittableRandom r, Object tree) {
        Object out = copy(tree);
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            out = mutateOnce(r, out);
        }
        return out;
    }

    private record Slot(Object parent, Object key) {}

    @SuppressWarnings("unchecked")
    private Object mutateOnce(SplittableRandom r, Object tree) {
        List<Slot> slots = new ArrayList<>();
        collect(tree, slots);
        if (slots.isEmpty()) {
            return r.nextBoolean() ? randomValue(r, 0) : tree;
        }
        Slot s = slots.get(r.nextInt(slots.size()));
        Object old = get(s);
        switch (r.nextInt(8)) {
            case 0 -> set(s, randomValue(r, 0));
            case 1 -> set(s, scalars.get(r.nextInt(scalars.size())));
            case 2 -> set(s, nest(r, old, 1 + r.nextInt(r.nextBoolean() ? 40 : 250)));
            case 3 -> set(s, huge(r));
            case 4 -> remove(s);
            case 5 -> addMember(r, s, old);
            case 6 -> renameKey(r, s);
            default -> duplicate(s, old);
        }
        return tree;
    }

    private static void collect(Object v, List<Slot> out) {
        if (v instanceof Map<?, ?> m) {
            for (Object k : List.copyOf(m.keySet())) {
                out.add(new Slot(m, k));
                collect(m.get(k), out);
            }
        } else if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                out.add(new Slot(l, i));
                collect(l.get(i), out);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Object get(Slot s) {
        return s.parent() instanceof Map<?, ?> m ? m.get(s.key()) : ((List<Object>) s.parent()).get((Integer) s.key());
    }

    @SuppressWarnings("unchecked")
    private static void set(Slot s, Object v) {
        if (s.parent() instanceof Map<?, ?> m) {
            ((Map<Object, Object>) m).put(s.key(), v);
        } else {
            ((List<Object>) s.parent()).set((Integer) s.key(), v);
        }
    }

    @SuppressWarnings("unchecked")
    private static void remove(Slot s) {
        if (s.parent() instanceof Map<?, ?> m) {
            m.remove(s.key());
        } else {
            ((List<Object>) s.parent()).remove((int) (Integer) s.key());
        }
    }

    @SuppressWarnings("unchecked")
    private void addMember(SplittableRandom r, Slot s, Object old) {
        Object container = old instanceof Map<?, ?> || old instanceof List<?> ? old : s.parent();
        Object v = r.nextBoolean() ? randomValue(r, 0) : scalars.get(r.nextInt(scalars.size()));
        if (container instanceof Map<?, ?> m) {
            ((Map<String, Object>) m).put(dictionary.get(r.nextInt(dictionary.size())), v);
        } else {
            ((List<Object>) container).add(v);
        }
    }

    @SuppressWarnings("unchecked")
    private void renameKey(SplittableRandom r, Slot s) {
        if (s.parent() instanceof Map<?, ?> m) {
            Object v = m.remove(s.key());
            ((Map<String, Object>) m).put(dictionary.get(r.nextInt(dictionary.size())), v);
        }
    }

    @SuppressWarnings("unchecked")
    private static void duplicate(Slot s, Object old) {
        if (old instanceof List<?> l && !l.isEmpty()) {
            ((List<Object>) l).add(copy(l.get(0)));
        } else if (s.parent() instanceof List<?> l) {
            ((List<Object>) l).add(copy(old));
        }
    }

    /** Wraps v in depth levels of attribute maps and lists (or bare JSON arrays). */
    private static Object nest(SplittableRandom r, Object v, int depth) {
        boolean bare = r.nextInt(4) == 0;
        Object out = v;
        for (int i = 0; i < depth; i++) {
            if (bare) {
                List<Object> l = new ArrayList<>();
                l.add(out);
                out = l;
            } else {
                Map<String, Object> m = new LinkedHashMap<>();
                if (r.nextBoolean()) {
                    Map<String, Object> inner = new LinkedHashMap<>();
                    inner.put("a", out);
                    m.put("M", inner);
                } else {
                    List<Object> l = new ArrayList<>();
                    l.add(out);
                    m.put("L", l);
                }
                out = m;
            }
        }
        return out;
    }

    private static Object huge(SplittableRandom r) {
        int length = 1 << (10 + r.nextInt(10));
        return switch (r.nextInt(4)) {
            case 0 -> "a".repeat(length);
            case 1 -> "\u00e9".repeat(length / 2);
            case 2 -> "9".repeat(length);
            default -> new JsonNumber("9".repeat(Math.min(length, 2000)));
        };
    }

    /** A random JSON value, biased to AttributeValue shapes. */
    Object randomValue(SplittableRandom r, int depth) {
        int kind = depth > 4 ? r.nextInt(6) : r.nextInt(10);
        switch (kind) {
            case 0:
                return scalars.get(r.nextInt(scalars.size()));
            case 1:
                return attribute("S", scalars.get(r.nextInt(scalars.size())));
            case 2:
                return attribute("N", r.nextBoolean() ? Integer.toString(r.nextInt()) : "1e" + r.nextInt(-140, 140));
            case 3:
                return attribute("B", r.nextBoolean() ? "AAEC" : "%%%");
            case 4:
                return attribute(r.nextBoolean() ? "BOOL" : "NULL", r.nextBoolean());
            case 5:
                return attribute(List.of("SS", "NS", "BS").get(r.nextInt(3)), list(r, depth, true));
            case 6:
                return attribute("L", list(r, depth, false));
            case 7: {
                Map<String, Object> m = new LinkedHashMap<>();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    m.put(dictionary.get(r.nextInt(dictionary.size())), randomValue(r, depth + 1));
                }
                return attribute("M", m);
            }
            case 8:
                return list(r, depth, false);
            default: {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put(dictionary.get(r.nextInt(dictionary.size())), randomValue(r, depth + 1));
                return m;
            }
        }
    }

    private List<Object> list(SplittableRandom r, int depth, boolean scalarsOnly) {
        List<Object> l = new ArrayList<>();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            l.add(scalarsOnly ? scalars.get(r.nextInt(scalars.size())) : randomValue(r, depth + 1));
        }
        return l;
    }

    private static Map<String, Object> attribute(String type, Object payload) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(type, payload);
        return m;
    }

    /** Every member name in the trees, plus the AttributeValue type keys. */
    @SuppressWarnings("unchecked")
    static void keys(Object tree, java.util.Set<String> out) {
        if (tree instanceof Map<?, ?> m) {
            ((Map<String, Object>) m).forEach((k, v) -> {
                out.add(k);
                keys(v, out);
            });
        } else if (tree instanceof List<?> l) {
            l.forEach(v -> keys(v, out));
        }
    }
}
