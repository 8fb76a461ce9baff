package dev.kumiko.server.cli;

import dev.kumiko.engine.Engine;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.server.exchange.ExchangeService;
import dev.kumiko.server.exchange.ExchangeSettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Which Kumiko {@code export} and {@code import} work on: a running server, or a data directory opened here. */
final class KumikoTarget {
    /** How often a command asks how its job is doing. */
    static final long POLL_MILLIS = 250;

    static final class Where {
        @Option(
                names = "--endpoint",
                paramLabel = "URL",
                description = "A running Kumiko server, e.g. http://127.0.0.1:8000 (it reads and writes the folder, "
                        + "so it must run on this machine).")
        URI endpoint;

        @Option(
                names = "--data-dir",
                paramLabel = "DIR",
                description = "A RocksDB data directory no server has open; the command opens it itself.")
        Path dataDir;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Where where = new Where();

    @Option(
            names = "--region",
            defaultValue = "us-east-1",
            description = "Region of the ARNs (default: ${DEFAULT-VALUE}).")
    String region;

    /**
     * The caller for the server or the data directory. A directory a server has open is refused in one
     * line that names the process and says to give that server's --endpoint instead (RocksDB's own text
     * is a lock error on a LOCK file); so is a missing directory when the command reads one.
     */
    DynamoCaller open(Path importLogDir, boolean mustExist) throws StartupChecks.Failure {
        if (where.endpoint != null) {
            return DynamoCaller.http(where.endpoint, region);
        }
        Path dir = where.dataDir.toAbsolutePath().normalize();
        if (mustExist && !java.nio.file.Files.isDirectory(dir)) {
            throw new StartupChecks.Failure(
                    StartupChecks.EXIT_UNAVAILABLE,
                    "no data directory at " + dir
                            + ": give the --data-dir a server wrote, or --endpoint of a running server");
        }
        String holder = StartupChecks.lockedBy(dir);
        if (holder != null) {
            throw inUse(dir, holder);
        }
        RocksStore store;
        try {
            store = RocksStore.open(dir, RocksStoreOptions.defaults());
        } catch (IllegalStateException e) {
            // Opened after the check, or by this very process (an fcntl lock does not conflict with its own
            // process, so the check cannot see it): RocksDB's own refusal, said the same way.
            throw String.valueOf(e.getMessage()).contains("lock")
                    ? inUse(dir, "another open store")
                    : new StartupChecks.Failure(
                            StartupChecks.EXIT_UNAVAILABLE,
                            "cannot open data directory " + dir + ": " + e.getMessage());
        }
        Engine engine = Engine.open(store);
        ExchangeService.start(engine, ExchangeSettings.defaults().withImportLogDir(importLogDir));
        return DynamoCaller.inProcess(engine, region);
    }

    private static StartupChecks.Failure inUse(Path dir, String holder) {
        return new StartupChecks.Failure(
                StartupChecks.EXIT_UNAVAILABLE,
                "data directory " + dir + " is in use by " + holder
                        + ": give --endpoint of the server that has it open instead of --data-dir, or stop it");
    }

    /** Asks for the job's description until it is no longer IN_PROGRESS, printing progress as it moves. */
    static Map<String, Object> await(
            DynamoCaller caller,
            String operation,
            String arnMember,
            String arn,
            String descriptionMember,
            String statusMember,
            Function<Map<String, Object>, String> progress)
            throws InterruptedException {
        String last = null;
        while (true) {
            @SuppressWarnings("unchecked")
            Map<String, Object> d = (Map<String, Object>)
                    caller.call(operation, Map.of(arnMember, arn)).get(descriptionMember);
            String now = progress.apply(d);
            if (!now.equals(last)) {
                System.err.println("kumiko: " + now);
                last = now;
            }
            if (!"IN_PROGRESS".equals(d.get(statusMember))) {
                return d;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
