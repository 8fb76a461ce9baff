package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import dev.kumiko.server.policy.PartiqlChecks;

/**
 * Registrations of the PartiQL operations: ExecuteStatement, BatchExecuteStatement, ExecuteTransaction.
 * PartiQL sits above the engine (it plans statements into the engine's own requests), so each call
 * wraps the engine in a PqOperations: a few small objects, no state, no cache to keep per engine.
 */
final class PartiqlOperations {
    private PartiqlOperations() {}

    static void register(OperationTable.Builder b) {
        b.add(dynamodb("ExecuteStatement", PartiqlProtocol::executeStatement,
                (e, r, c) -> e.partiql().executeStatement(r),
                (g, t, c) -> PartiqlProtocol.executeStatement(g, t), PartiqlChecks::executeStatement));
        b.add(dynamodb("BatchExecuteStatement", PartiqlProtocol::batchExecuteStatement,
                (e, r, c) -> e.partiql().batchExecuteStatement(r),
                (g, t, c) -> PartiqlProtocol.batchExecuteStatement(g, t), PartiqlChecks::batchExecuteStatement));
        b.add(dynamodb("ExecuteTransaction", PartiqlProtocol::executeTransaction,
                (e, r, c) -> e.partiql().executeTransaction(r),
                (g, t, c) -> PartiqlProtocol.executeTransaction(g, t), PartiqlChecks::executeTransaction));
    }
}
