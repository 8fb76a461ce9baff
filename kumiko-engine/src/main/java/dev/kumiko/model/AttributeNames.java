package dev.kumiko.model;

import java.nio.charset.StandardCharsets;

/**
 * DynamoDB's rule for attribute names (Developer Guide, "Attribute names"): at least one
 * character and at most 64 KB (65,535 bytes of UTF-8), at every depth of an item. The text for a
 * name too long was captured from DynamoDB by a third party (docs/notes/error-messages.md); the
 * text for an empty name is Kumiko's (UNVERIFIED).
 */
public final class AttributeNames {
    public static final int NAME_BYTES_MAX = 65_535;
    public static final String EMPTY = "Empty attribute name";
    /** A whole message: DynamoDB words it as one aggregated constraint violation. */
    public static final String TOO_LARGE = "1 validation error detected: Attribute name is too large, must be less "
            + "than " + (NAME_BYTES_MAX + 1) + " bytes";

    private AttributeNames() {}

    public static boolean tooLarge(String name) {
        // Three bytes per char at most, so only long names need measuring.
        return name.length() > NAME_BYTES_MAX / 3 && name.getBytes(StandardCharsets.UTF_8).length > NAME_BYTES_MAX;
    }
}
