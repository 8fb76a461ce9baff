package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import dev.kumiko.partiql.PqRequests;
import dev.kumiko.partiql.PqResults;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: JSON in, the engine's PartiQL, JSON out. */
final class PartiqlProtocol {
    private PartiqlProtocol() {}

    static PqRequests.ExecuteStatement executeStatement(Map<String, Object> b) {
        String statement = Fields.string(b, "Statement");
        List<AttributeValue> parameters = parameters(b);
        Boolean consistentRead = Fields.bool(b, "ConsistentRead");
        String nextToken = Fields.string(b, "NextToken");
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        Long limit = Fields.longValue(b, "Limit");
        String onConditionFailure = Fields.string(b, "ReturnValuesOnConditionCheckFailure");
        var r = new PqRequests.ExecuteStatement(
                statement,
                parameters,
                consistentRead,
                nextToken,
                WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity),
                limit,
                WireEnums.lenient(ReturnValuesOnConditionCheckFailure.class, onConditionFailure));
        MemberViolations.check(
                r,
                () -> PartiqlConstraints.executeStatement(
                        statement, parameters, nextToken, returnConsumedCapacity, limit, onConditionFailure));
        return r;
    }

    static void executeStatement(JsonGenerator g, PqResults.ExecuteStatement r) throws IOException {
        items(g, "Items", r.items());
        if (r.nextToken() != null) {
            g.writeStringField("NextToken", r.nextToken());
        }
        if (r.consumedCapacity() != null) {
            Operations.consumedCapacity(g, r.consumedCapacity());
        }
        if (r.lastEvaluatedKey() != null) {
            g.writeFieldName("LastEvaluatedKey");
            JsonOut.item(g, r.lastEvaluatedKey());
        }
    }

    /** One BatchStatementRequest as sent: its members, and its ConsistentRead. */
    private record BatchEntry(
            PartiqlConstraints.Statement members, @Nullable Boolean consistentRead) {}

    static PqRequests.BatchExecuteStatement batchExecuteStatement(Map<String, Object> b) {
        List<BatchEntry> entries = Fields.objects(
                b,
                "Statements",
                s -> s == null
                        ? new BatchEntry(new PartiqlConstraints.Statement(null, null, null), null)
                        : batchEntry(s));
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        List<PqRequests.BatchStatement> statements = entries == null
                ? null
                : entries.stream()
                        .map(e -> new PqRequests.BatchStatement(
                                e.members().statement(),
                                e.members().parameters(),
                                e.consistentRead(),
                                onConditionFailure(e.members())))
                        .toList();
        var r = new PqRequests.BatchExecuteStatement(
                statements, WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity));
        MemberViolations.check(
                r,
                () -> PartiqlConstraints.batch(
                        entries == null
                                ? null
                                : entries.stream().map(BatchEntry::members).toList(),
                        returnConsumedCapacity));
        return r;
    }

    private static BatchEntry batchEntry(Map<String, Object> s) {
        String statement = Fields.string(s, "Statement");
        List<AttributeValue> parameters = parameters(s);
        Boolean consistentRead = Fields.bool(s, "ConsistentRead");
        String onConditionFailure = Fields.string(s, "ReturnValuesOnConditionCheckFailure");
        return new BatchEntry(
                new PartiqlConstraints.Statement(statement, parameters, onConditionFailure), consistentRead);
    }

    private static PartiqlConstraints.Statement statement(Map<String, Object> s) {
        if (s == null) {
            return new PartiqlConstraints.Statement(null, null, null);
        }
        String statement = Fields.string(s, "Statement");
        List<AttributeValue> parameters = parameters(s);
        return new PartiqlConstraints.Statement(
                statement, parameters, Fields.string(s, "ReturnValuesOnConditionCheckFailure"));
    }

    private static @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure(PartiqlConstraints.Statement s) {
        return WireEnums.lenient(ReturnValuesOnConditionCheckFailure.class, s.returnValuesOnConditionCheckFailure());
    }

    static void batchExecuteStatement(JsonGenerator g, PqResults.BatchExecuteStatement r) throws IOException {
        g.writeArrayFieldStart("Responses");
        for (PqResults.BatchEntry e : r.responses()) {
            batchEntry(g, e);
        }
        g.writeEndArray();
        Operations.consumedCapacities(g, r.consumedCapacity());
    }

    static PqRequests.ExecuteTransaction executeTransaction(Map<String, Object> b) {
        List<PartiqlConstraints.Statement> entries =
                Fields.objects(b, "TransactStatements", PartiqlProtocol::statement);
        String clientRequestToken = Fields.string(b, "ClientRequestToken");
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        List<PqRequests.TransactStatement> statements = entries == null
                ? null
                : entries.stream()
                        .map(e ->
                                new PqRequests.TransactStatement(e.statement(), e.parameters(), onConditionFailure(e)))
                        .toList();
        var r = new PqRequests.ExecuteTransaction(
                statements,
                clientRequestToken,
                WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity));
        MemberViolations.check(
                r, () -> PartiqlConstraints.transaction(entries, clientRequestToken, returnConsumedCapacity));
        return r;
    }

    static void executeTransaction(JsonGenerator g, PqResults.ExecuteTransaction r) throws IOException {
        g.writeArrayFieldStart("Responses");
        for (Map<String, AttributeValue> item : r.responses()) {
            g.writeStartObject();
            if (item != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, item);
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        Operations.consumedCapacities(g, r.consumedCapacity());
    }

    private static void batchEntry(JsonGenerator g, PqResults.BatchEntry e) throws IOException {
        g.writeStartObject();
        if (e.error() != null) {
            g.writeObjectFieldStart("Error");
            g.writeStringField("Code", e.error().code());
            if (e.error().message() != null) {
                g.writeStringField("Message", e.error().message());
            }
            if (e.error().item() != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, e.error().item());
            }
            g.writeEndObject();
        }
        if (e.tableName() != null) {
            g.writeStringField("TableName", e.tableName());
        }
        if (e.item() != null) {
            g.writeFieldName("Item");
            JsonOut.item(g, e.item());
        }
        g.writeEndObject();
    }

    private static void items(JsonGenerator g, String field, List<Map<String, AttributeValue>> items)
            throws IOException {
        g.writeArrayFieldStart(field);
        for (Map<String, AttributeValue> item : items) {
            JsonOut.item(g, item);
        }
        g.writeEndArray();
    }

    /** The Parameters list, each an AttributeValue as the wire carries it; null when absent. */
    private static @Nullable List<AttributeValue> parameters(Map<String, Object> body) {
        List<Object> raw = Fields.list(body, "Parameters");
        if (raw == null) {
            return null;
        }
        List<AttributeValue> out = new ArrayList<>(raw.size());
        for (Object o : raw) {
            out.add(AttributeValues.decode(o, 0));
        }
        return out;
    }
}
