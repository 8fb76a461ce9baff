package dev.kumiko.server.policy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.partiql.PqParser;
import dev.kumiko.partiql.PqStatement;
import dev.kumiko.server.protocol.AttributeValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The permissions of ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: each
 * statement needs the PartiQL action of its kind (dynamodb:PartiQLSelect, PartiQLInsert,
 * PartiQLUpdate, PartiQLDelete) on its table, or on the index a SELECT reads. A statement that
 * does not parse gets no check: the engine rejects it with DynamoDB's error. A SELECT carries
 * dynamodb:FullTableScan, true unless its WHERE fixes the partition key of what it reads.
 */
final class PartiqlChecks {
    private PartiqlChecks() {}

    static List<AuthorizationCheck> of(ResourceArns arns, KeySchemas schemas, String operation,
            Map<String, Object> body) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (operation.equals("ExecuteStatement")) {
            add(arns, schemas, body, out);
        } else {
            String member = operation.equals("BatchExecuteStatement") ? "Statements" : "TransactStatements";
            if (body.get(member) instanceof List<?> statements) {
                for (Object s : statements) {
                    if (s instanceof Map<?, ?> m) {
                        add(arns, schemas, cast(m), out);
                    }
                }
            }
        }
        return out;
    }

    private static void add(ResourceArns arns, KeySchemas schemas, Map<String, Object> statement,
            List<AuthorizationCheck> out) {
        if (!(statement.get("Statement") instanceof String text)) {
            return;
        }
        PqStatement parsed;
        try {
            parsed = PqParser.parse(text, parameters(statement.get("Parameters")));
        } catch (DynamoException | IllegalArgumentException e) {
            return;
        }
        String index = parsed instanceof PqStatement.Select s ? s.indexName() : null;
        String resource = index == null ? arns.table(parsed.tableName()) : arns.index(parsed.tableName(), index);
        Map<String, List<String>> keys = new LinkedHashMap<>();
        if (parsed instanceof PqStatement.Select s) {
            String partitionKey = schemas.partitionKey(s.tableName(), index);
            if (partitionKey != null) {
                keys.put("dynamodb:FullTableScan", List.of(String.valueOf(!s.fixes(partitionKey))));
            }
        }
        out.add(new AuthorizationCheck(parsed.action(), resource, keys));
    }

    private static List<AttributeValue> parameters(Object raw) {
        if (!(raw instanceof List<?> list)) {
            return null;
        }
        List<AttributeValue> out = new ArrayList<>(list.size());
        for (Object o : list) {
            out.add(AttributeValues.decode(o, 0));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> raw) {
        return (Map<String, Object>) raw;
    }
}
