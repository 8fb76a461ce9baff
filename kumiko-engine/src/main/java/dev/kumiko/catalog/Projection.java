package dev.kumiko.catalog;

import java.util.List;

/** An index projection: ALL, KEYS_ONLY, or INCLUDE with its non-key attributes. */
public record Projection(String projectionType, List<String> nonKeyAttributes) {}
