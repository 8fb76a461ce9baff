package dev.kumiko.catalog;

import dev.kumiko.model.ProjectionType;
import java.util.List;

/** An index projection: ALL, KEYS_ONLY, or INCLUDE with its non-key attributes. */
public record Projection(ProjectionType projectionType, List<String> nonKeyAttributes) {}
