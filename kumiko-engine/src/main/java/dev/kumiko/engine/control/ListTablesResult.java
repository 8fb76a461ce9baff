package dev.kumiko.engine.control;

import java.util.List;

public record ListTablesResult(List<String> tableNames, String lastEvaluatedTableName) {}
