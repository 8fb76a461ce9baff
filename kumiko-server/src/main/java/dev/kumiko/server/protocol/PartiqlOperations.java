package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import dev.kumiko.server.policy.PartiqlChecks;
import java.util.List;

/**
 * Registrations of the PartiQL operations: ExecuteStatement, BatchExecuteStatement, ExecuteTransaction.
 * PartiQL sits above the engine (it plans statements into the engine's own requests), so each call
 * wraps the engine in a PqOperations: a few small objects, no state, no cache to keep per engine.
 */
final class PartiqlOperations {
    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of("ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "ExecuteStatement" ->
                dynamodb(
                        name,
                        PartiqlProtocol::executeStatement,
                        (e, r, c) -> e.partiql().executeStatement(r),
                        (g, t, c) -> PartiqlProtocol.executeStatement(g, t),
                        PartiqlChecks::executeStatement);
            case "BatchExecuteStatement" ->
                dynamodb(
                        name,
                        PartiqlProtocol::batchExecuteStatement,
                        (e, r, c) -> e.partiql().batchExecuteStatement(r),
                        (g, t, c) -> PartiqlProtocol.batchExecuteStatement(g, t),
                        PartiqlChecks::batchExecuteStatement);
            case "ExecuteTransaction" ->
                dynamodb(
                        name,
                        PartiqlProtocol::executeTransaction,
                        (e, r, c) -> e.partiql().executeTransaction(r),
                        (g, t, c) -> PartiqlProtocol.executeTransaction(g, t),
                        PartiqlChecks::executeTransaction);
            default -> throw new IllegalArgumentException("not a PartiQL operation: " + name);
        };
    }

    private PartiqlOperations() {}
}
