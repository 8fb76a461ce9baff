package dev.kumiko.engine.control;

import java.util.List;
import org.jspecify.annotations.Nullable;

public record ListTablesResult(
        List<String> tableNames, @Nullable String lastEvaluatedTableName) {}
