package dev.kumiko.server.json;

/** JSON null, distinct from an absent member. */
public enum JsonNull {
    INSTANCE
}
