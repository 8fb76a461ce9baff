package dev.kumiko.engine.control;

import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.ProjectionType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Projection rules shared by CreateTable and UpdateTable's index creation. */
final class IndexRules {
    private IndexRules() {}

    static void checkProjection(IndexInput x) {
        ProjectionType type = x.projection().projectionType();
        List<String> nonKey = x.projection().nonKeyAttributes();
        if (type == null) {
            throw DynamoException.invalidParameter("Unknown ProjectionType: null");
        }
        if (type == ProjectionType.INCLUDE) {
            if (nonKey == null || nonKey.isEmpty()) {
                throw DynamoException.invalidParameter(
                        "ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
            }
            Set<String> seen = new HashSet<>();
            for (String a : nonKey) {
                if (!seen.add(a)) {
                    throw DynamoException.invalidParameter(
                            "Duplicate attribute name in NonKeyAttributes for index: " + x.indexName());
                }
            }
        } else if (nonKey != null) {
            throw DynamoException.invalidParameter("ProjectionType is " + type + ", but NonKeyAttributes is specified");
        }
    }

    static void checkProjectedAttributeCount(List<IndexInput> lsis, List<IndexInput> gsis) {
        int total = count(lsis) + count(gsis);
        if (total > CreateTableValidator.PROJECTED_ATTRIBUTES_MAX) {
            throw DynamoException.invalidParameter("The number of projected attributes in all indexes exceeds "
                    + "the limit of " + CreateTableValidator.PROJECTED_ATTRIBUTES_MAX + ", provided: " + total);
        }
    }

    private static int count(List<IndexInput> indexes) {
        int n = 0;
        if (indexes != null) {
            for (IndexInput x : indexes) {
                List<String> nonKey = x.projection().nonKeyAttributes();
                n += nonKey == null ? 0 : nonKey.size();
            }
        }
        return n;
    }
}
