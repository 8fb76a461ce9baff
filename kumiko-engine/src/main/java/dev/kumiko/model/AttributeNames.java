package dev.kumiko.model;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * DynamoDB's rule for attribute names (Developer Guide, "Attribute names"): at least one
 * character and at most 64 KB (65,535 bytes of UTF-8). Its error texts are not documented and no
 * capture was found: the messages here are Kumiko's (UNVERIFIED).
 */
public final class AttributeNames {
    public static final int NAME_BYTES_MAX = 65_535;

    private AttributeNames() {}

    /** What is wrong with name as an attribute name, or null when nothing is. */
    public static @Nullable String problem(String name) {
        if (name.isEmpty()) {
            return "Empty attribute name";
        }
        // Three bytes per char at most, so only long names need measuring.
        if (name.length() > NAME_BYTES_MAX / 3 && name.getBytes(StandardCharsets.UTF_8).length > NAME_BYTES_MAX) {
            return "Attribute name exceeds the maximum length of " + NAME_BYTES_MAX + " bytes";
        }
        return null;
    }
}
