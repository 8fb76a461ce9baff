package dev.kumiko.server.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * DynamoDB Local's command-line flags, so that a team can swap {@code java -jar DynamoDBLocal.jar
 * -sharedDb -port 8001 ...} for {@code bin/kumiko serve} with the same arguments. Each flag either
 * maps to a Kumiko option or is accepted with a one-line note on stderr saying why it changes nothing.
 */
final class DynamoDbLocalFlags {
    @Option(names = "-inMemory", hidden = true, description = "DynamoDB Local: same as --in-memory.")
    boolean inMemory;

    @Option(names = "-port", hidden = true, paramLabel = "PORT", description = "DynamoDB Local: same as --port.")
    Integer port;

    @Option(
            names = "-dbPath",
            hidden = true,
            paramLabel = "DIR",
            description = "DynamoDB Local: same as --data-dir (Kumiko stores RocksDB files there, not a .db file).")
    Path dbPath;

    @Option(names = "-sharedDb", hidden = true, description = "DynamoDB Local: one database for all clients.")
    boolean sharedDb;

    @Option(names = "-cors", hidden = true, paramLabel = "ORIGINS", description = "DynamoDB Local: CORS origins.")
    String cors;

    @Option(
            names = "-delayTransientStatuses",
            hidden = true,
            description = "DynamoDB Local: keep CREATING/DELETING/UPDATING for a while.")
    boolean delayTransientStatuses;

    @Option(names = "-disableTelemetry", hidden = true, description = "DynamoDB Local: send no telemetry.")
    boolean disableTelemetry;

    @Option(
            names = "-optimizeDbBeforeStartup",
            hidden = true,
            description = "DynamoDB Local: optimize its SQLite tables first.")
    boolean optimizeDbBeforeStartup;

    /** Copies the mapped flags onto the command and prints a note for each flag that changes nothing. */
    void apply(ServeCommand serve, PrintStream notes) {
        if (inMemory) {
            serve.inMemory = true;
        }
        if (port != null) {
            serve.port = port;
        }
        if (dbPath != null) {
            serve.dataDir = dbPath;
            notes.println("kumiko: -dbPath " + dbPath + ": RocksDB files go in that directory (DynamoDB Local's "
                    + "shared-local-instance.db is not read)");
        }
        if (sharedDb) {
            notes.println("kumiko: -sharedDb: accepted; Kumiko always serves one database to every access key "
                    + "and region");
        }
        if (cors != null) {
            notes.println("kumiko: -cors " + cors + ": accepted; Kumiko answers CORS requests from any origin");
        }
        if (delayTransientStatuses) {
            notes.println("kumiko: -delayTransientStatuses: ignored; Kumiko does not add delays to table "
                    + "status changes");
        }
        if (disableTelemetry) {
            notes.println("kumiko: -disableTelemetry: accepted; Kumiko sends no telemetry");
        }
        if (optimizeDbBeforeStartup) {
            notes.println("kumiko: -optimizeDbBeforeStartup: ignored; Kumiko has no SQLite tables to optimize");
        }
    }
}
