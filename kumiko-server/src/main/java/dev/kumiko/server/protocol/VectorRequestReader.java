package dev.kumiko.server.protocol;

import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.UpdateTableRequest;
import dev.kumiko.engine.vector.VectorRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Decodes the vector members of CreateTable and UpdateTable, and SearchVectors. */
final class VectorRequestReader {
    private VectorRequestReader() {}

    /** CreateTable with its VectorIndexes (null when absent). */
    record CreateTable(CreateTableRequest table, @Nullable List<VectorRequests.IndexInput> vectorIndexes) {}

    /** UpdateTable with its VectorIndexUpdates (null when absent). */
    record UpdateTable(UpdateTableRequest table, @Nullable List<VectorRequests.IndexUpdate> vectorIndexUpdates) {}

    static CreateTable createTable(Map<String, Object> b) {
        CreateTableRequest table = ControlPlaneRequests.createTable(b);
        return new CreateTable(table, Fields.objects(b, "VectorIndexes", VectorRequestReader::index));
    }

    static UpdateTable updateTable(Map<String, Object> b) {
        UpdateTableRequest table = ControlPlaneRequests.updateTable(b);
        return new UpdateTable(table, Fields.objects(b, "VectorIndexUpdates", VectorRequestReader::update));
    }

    static VectorRequests.IndexInput index(Map<String, Object> m) {
        Map<String, Object> vector = Fields.object(m, "VectorAttribute");
        Map<String, Object> p = Fields.object(m, "Projection");
        CreateTableRequest.ProjectionInput projection = p == null
                ? null
                : new CreateTableRequest.ProjectionInput(
                        WireEnums.lenient(ProjectionType.class, Fields.string(p, "ProjectionType")),
                        Fields.strings(p, "NonKeyAttributes"));
        return new VectorRequests.IndexInput(
                Fields.string(m, "IndexName"),
                vector == null ? null : Fields.string(vector, "AttributeName"),
                Fields.longValue(m, "Dimensions"),
                Fields.string(m, "DistanceFunction"),
                Fields.objects(
                        m,
                        "SearchSchema",
                        s -> new VectorRequests.SchemaInput(
                                Fields.string(s, "AttributeName"), Fields.string(s, "SearchSchemaElementType"))),
                projection);
    }

    private static VectorRequests.IndexUpdate update(Map<String, Object> m) {
        Map<String, Object> create = Fields.object(m, "Create");
        Map<String, Object> delete = Fields.object(m, "Delete");
        return new VectorRequests.IndexUpdate(
                create == null ? null : index(create),
                delete == null ? null : Fields.string(delete, "IndexName"),
                delete != null);
    }

    static VectorRequests.SearchVectors searchVectors(Map<String, Object> b) {
        List<Object> raw = Fields.list(b, "SearchVector");
        List<AttributeValue> vector = null;
        if (raw != null) {
            vector = new ArrayList<>(raw.size());
            for (Object element : raw) {
                vector.add(AttributeValues.decode(element, 0));
            }
        }
        Long topK = Fields.longValue(b, "TopK");
        return new VectorRequests.SearchVectors(
                Fields.string(b, "TableName"),
                Fields.string(b, "IndexName"),
                vector,
                topK == null ? null : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, topK)),
                Fields.string(b, "SearchConditionExpression"),
                Fields.string(b, "ProjectionExpression"),
                Fields.stringMap(b, "ExpressionAttributeNames"),
                AttributeValues.item(b, "ExpressionAttributeValues"),
                WireEnums.lenient(ReturnConsumedCapacity.class, Fields.string(b, "ReturnConsumedCapacity")));
    }
}
