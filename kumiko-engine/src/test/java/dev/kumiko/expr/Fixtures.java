package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.LinkedHashMap;
import java.util.Map;

final class Fixtures {
    private Fixtures() {}

    /** Alternating key/value pairs into an insertion-ordered map. */
    @SuppressWarnings("unchecked")
    static <V> Map<String, V> map(Object... kv) {
        Map<String, V> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (V) kv[i + 1]);
        }
        return m;
    }

    static AttributeValue s(String v) {
        return AttributeValue.s(v);
    }

    static AttributeValue n(String v) {
        return AttributeValue.n(v);
    }
}
