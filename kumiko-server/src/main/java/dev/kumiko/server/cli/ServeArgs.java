package dev.kumiko.server.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code kumiko serve}'s arguments read without picocli, when every one of them is a plain option
 * with a plain value. picocli builds a command's model by reflection over its annotations and
 * registers its type converters by reflection too: about 100 ms of a server's start on a 2-core
 * VM, a third of the main thread's CPU until the first answer (docs/performance-notes.md, target 4).
 *
 * <p>Anything else goes to picocli, which then parses the whole command line and answers exactly
 * as it always has: help and version requests, an unknown or repeated option, a value picocli
 * would refuse or read differently (not plain decimal digits, an empty value, one that starts with
 * "-"), {@code --request-log} (its value is optional), {@code --}. So this class never decides
 * anything picocli would answer with an error or a usage message; it only spares the reflection
 * when there is nothing to decide. {@code ServeArgsTest} parses the same arguments both ways and
 * compares every field, and fails when {@link ServeCommand} gains an option this class does not
 * know (which would only send such starts back to picocli, but would do it silently).
 *
 * <p>Defaults are the fields' initial values, which picocli also shows and uses.
 */
final class ServeArgs {
    /** Longest decimal number read here: 18 digits always fit a long, and 9 an int. */
    private static final int LONG_DIGITS_MAX = 18;

    private static final int INT_DIGITS_MAX = 9;
    /**
     * A plain command line names each option at most once: "serve", 28 options with a value and 7
     * flags are 64 arguments. More are left to picocli (it refuses the repeats).
     */
    private static final int ARGS_MAX = 64;

    private ServeArgs() {}

    /** Thrown, without a stack trace, when the arguments are for picocli to read. */
    private static final class NotPlain extends Exception {
        @SuppressWarnings("StaticAssignmentOfThrowable") // no stack trace, no cause: one instance serves every throw
        private static final NotPlain INSTANCE = new NotPlain();

        private NotPlain() {
            super(null, null, false, false);
        }
    }

    /**
     * The serve command for args (the whole command line, "serve" first), or null when picocli
     * must read them.
     */
    static ServeCommand parse(String[] args) {
        if (args.length == 0 || !"serve".equals(args[0]) || args.length > ARGS_MAX) {
            return null;
        }
        ServeCommand serve = new ServeCommand();
        Set<String> seen = new HashSet<>();
        try {
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (arg.startsWith("@")) {
                    throw NotPlain.INSTANCE; // picocli reads arguments from the file @names
                }
                int eq = arg.indexOf('=');
                String name = eq < 0 ? arg : arg.substring(0, eq);
                if (!seen.add(name)) {
                    throw NotPlain.INSTANCE; // picocli refuses a repeated option
                }
                if (!takesValue(name)) {
                    if (eq >= 0) {
                        throw NotPlain.INSTANCE;
                    }
                    setFlag(serve, name);
                    continue;
                }
                String value;
                if (eq >= 0) {
                    value = arg.substring(eq + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw NotPlain.INSTANCE;
                }
                if (value.isEmpty() || value.startsWith("-") || value.startsWith("@")) {
                    throw NotPlain.INSTANCE;
                }
                setValue(serve, name, value);
            }
        } catch (NotPlain e) {
            return null;
        }
        return serve;
    }

    private static boolean takesValue(String name) {
        switch (name) {
            case "--port",
                    "--host",
                    "--data-dir",
                    "--store",
                    "--ignite-endpoints",
                    "--region",
                    "--kinesis-endpoint",
                    "--durability",
                    "--ttl-sweep-interval-millis",
                    "--point-cache-mb",
                    "--idle-compaction-mb",
                    "--auth",
                    "--memory-budget-mb",
                    "--in-flight-mb",
                    "--credentials-file",
                    "--tls-cert",
                    "--tls-key",
                    "-port",
                    "-dbPath",
                    "-cors",
                    "--console",
                    "--console-model",
                    "--s3-endpoint",
                    "--s3-region",
                    "--s3-access-key-id",
                    "--s3-secret-access-key",
                    "--import-log-dir",
                    "--incremental-export-min-period-seconds":
                return true;
            default:
                return false;
        }
    }

    private static void setFlag(ServeCommand s, String name) throws NotPlain {
        DynamoDbLocalFlags local = s.dynamoDbLocalFlags;
        switch (name) {
            case "--in-memory" -> s.inMemory = true;
            case "--throttling" -> s.throttling = true;
            case "-inMemory" -> local.inMemory = true;
            case "-sharedDb" -> local.sharedDb = true;
            case "-delayTransientStatuses" -> local.delayTransientStatuses = true;
            case "-disableTelemetry" -> local.disableTelemetry = true;
            case "-optimizeDbBeforeStartup" -> local.optimizeDbBeforeStartup = true;
            default -> throw NotPlain.INSTANCE; // help, version, --request-log, unknown
        }
    }

    private static void setValue(ServeCommand s, String name, String value) throws NotPlain {
        switch (name) {
            case "--port" -> s.port = intValue(value);
            case "--host" -> s.host = value;
            case "--data-dir" -> s.dataDir = path(value);
            case "--store" -> s.storeName = value;
            case "--ignite-endpoints" -> s.igniteEndpoints = value;
            case "--region" -> s.region = value;
            case "--kinesis-endpoint" -> s.kinesisEndpoint = value;
            case "--durability" -> s.durability = value;
            case "--ttl-sweep-interval-millis" -> s.ttlSweepIntervalMillis = longValue(value);
            case "--point-cache-mb" -> s.pointCacheMib = longValue(value);
            case "--idle-compaction-mb" -> s.idleCompactionMib = longValue(value);
            case "--memory-budget-mb" -> s.memoryBudgetMib = longValue(value);
            case "--in-flight-mb" -> s.inFlightMib = longValue(value);
            case "--auth" -> s.auth = value;
            case "--credentials-file" -> s.credentialsFile = path(value);
            case "--tls-cert" -> s.tlsCert = path(value);
            case "--tls-key" -> s.tlsKey = path(value);
            case "-port" -> s.dynamoDbLocalFlags.port = intValue(value);
            case "-dbPath" -> s.dynamoDbLocalFlags.dbPath = path(value);
            case "-cors" -> s.dynamoDbLocalFlags.cors = value;
            case "--console" -> s.consoleOptions.console = value;
            case "--console-model" -> s.consoleOptions.consoleModel = path(value);
            case "--s3-endpoint" -> s.exchangeOptions.s3Endpoint = uri(value);
            case "--s3-region" -> s.exchangeOptions.s3Region = value;
            case "--s3-access-key-id" -> s.exchangeOptions.s3AccessKeyId = value;
            case "--s3-secret-access-key" -> s.exchangeOptions.s3SecretAccessKey = value;
            case "--import-log-dir" -> s.exchangeOptions.importLogDir = path(value);
            case "--incremental-export-min-period-seconds" ->
                s.exchangeOptions.incrementalMinPeriodSeconds = longValue(value);
            default -> throw new IllegalStateException("takesValue and setValue disagree on " + name);
        }
    }

    /**
     * Plain decimal digits only, without a leading zero: picocli reads a number with a radix prefix
     * or a leading zero its own way, and refuses what does not fit; those go to picocli.
     */
    static boolean plainDigits(String value, int digitsMax) {
        int n = value.length();
        if (n == 0 || n > digitsMax || (n > 1 && value.charAt(0) == '0')) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static int intValue(String value) throws NotPlain {
        if (!plainDigits(value, INT_DIGITS_MAX)) {
            throw NotPlain.INSTANCE;
        }
        return Integer.parseInt(value);
    }

    private static long longValue(String value) throws NotPlain {
        if (!plainDigits(value, LONG_DIGITS_MAX)) {
            throw NotPlain.INSTANCE;
        }
        return Long.parseLong(value);
    }

    private static Path path(String value) throws NotPlain {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw NotPlain.INSTANCE;
        }
    }

    private static URI uri(String value) throws NotPlain {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw NotPlain.INSTANCE;
        }
    }
}
