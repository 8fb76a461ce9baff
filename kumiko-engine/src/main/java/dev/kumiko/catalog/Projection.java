package dev.kumiko.catalog;

import dev.kumiko.model.ProjectionType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** An index projection: ALL, KEYS_ONLY, or INCLUDE with its non-key attributes. */
public record Projection(
        ProjectionType projectionType, @Nullable List<String> nonKeyAttributes) {}
