package dev.kumiko.server.policy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.partiql.PqParse;
import dev.kumiko.partiql.PqRequests;
import dev.kumiko.partiql.PqStatement;
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
public final class PartiqlChecks {
    private PartiqlChecks() {}

    public static List<AuthorizationCheck> executeStatement(PqRequests.ExecuteStatement r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>(1);
        add(f, r.statement(), r.parse(), out);
        return out;
    }

    public static List<AuthorizationCheck> batchExecuteStatement(PqRequests.BatchExecuteStatement r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (r.statements() != null) {
            for (PqRequests.BatchStatement s : r.statements()) {
                add(f, s.statement(), s.parse(), out);
            }
        }
        return out;
    }

    public static List<AuthorizationCheck> executeTransaction(PqRequests.ExecuteTransaction r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (r.transactStatements() != null) {
            for (PqRequests.TransactStatement s : r.transactStatements()) {
                add(f, s.statement(), s.parse(), out);
            }
        }
        return out;
    }

    /** The statement's parse is the one the engine then runs (no text is parsed twice). */
    private static void add(AuthFacts f, String text, PqParse parse, List<AuthorizationCheck> out) {
        if (text == null) {
            return;
        }
        PqStatement parsed;
        try {
            parsed = parse.statement();
        } catch (DynamoException | IllegalArgumentException e) {
            return;
        }
        String index = parsed instanceof PqStatement.Select s ? s.indexName() : null;
        ResourceArns arns = f.arns();
        String resource = index == null ? arns.table(parsed.tableName()) : arns.index(parsed.tableName(), index);
        Map<String, List<String>> keys = new LinkedHashMap<>();
        if (parsed instanceof PqStatement.Select s) {
            String partitionKey = f.partitionKey(s.tableName(), index);
            if (partitionKey != null) {
                keys.put("dynamodb:FullTableScan", List.of(String.valueOf(!s.fixes(partitionKey))));
            }
        }
        out.add(new AuthorizationCheck(parsed.action(), resource, keys));
    }
}
