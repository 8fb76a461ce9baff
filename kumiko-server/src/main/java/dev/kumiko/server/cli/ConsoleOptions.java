package dev.kumiko.server.cli;

import dev.kumiko.engine.Engine;
import dev.kumiko.server.console.ConsolePaths;
import dev.kumiko.server.metrics.HotKeys;
import dev.kumiko.server.metrics.RequestLog;
import dev.kumiko.server.metrics.ServerMetrics;
import dev.kumiko.server.metrics.Telemetry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code kumiko serve}'s options for seeing into the server: the console and the request log. */
final class ConsoleOptions {
    @Option(
            names = "--console",
            paramLabel = "auto|on|off",
            description = "The web console at /console/: auto (default) serves it when --host is a loopback "
                    + "address; with --auth=sigv4 it is always off (its browser requests are not signed).")
    String console = "auto";

    @Option(
            names = "--console-model",
            paramLabel = "FILE",
            description = "A model file (as `kumiko model check` reads it) whose entities the console names "
                    + "(see docs/console.md).")
    Path consoleModel;

    @Option(
            names = "--request-log",
            arity = "0..1",
            fallbackValue = RequestLog.STDOUT,
            paramLabel = "FILE|stdout",
            description = "Write one line per request (time, operation, table, status, latency, capacity) to "
                    + "FILE or stdout (the default when no value is given).")
    String requestLog;

    /** A bad option, said in one line. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private byte[] model;
    private RequestLog log;

    /** Checks the options, reads the model file and opens the request log, before the store is opened. */
    void check(boolean sigV4) throws Invalid {
        if (!"auto".equals(console) && !"on".equals(console) && !"off".equals(console)) {
            throw new Invalid("--console must be 'auto', 'on' or 'off'");
        }
        if (sigV4 && "on".equals(console)) {
            throw new Invalid("--console=on cannot be used with --auth=sigv4: the console's requests are not signed");
        }
        if (consoleModel != null) {
            try {
                model = ConsoleModelFile.load(consoleModel);
            } catch (ConsoleModelFile.Invalid e) {
                throw new Invalid(e.getMessage());
            }
        }
        log = openLog();
    }

    /**
     * The request hooks for {@code engine}: metrics always, the console and request log as asked.
     * Hot keys are counted only for a console that is served, since nothing else shows them: the
     * counts cost three map lookups per item read or written (3 % of a BatchWriteItem's samples in
     * a profile; 6 % less CPU per batch measured without them, docs/console.md).
     */
    Telemetry telemetry(Engine engine, String host, boolean sigV4) {
        ServerMetrics metrics = new ServerMetrics(engine);
        ConsolePaths.Access access = access(host, sigV4);
        HotKeys hotKeys = access == ConsolePaths.Access.ON ? new HotKeys() : null;
        ConsolePaths paths = new ConsolePaths(metrics, hotKeys, access, model);
        return new Telemetry(metrics, hotKeys, log, paths).attach(engine);
    }

    /** Whether the console is served, once the options are checked. */
    ConsolePaths.Access access(String host, boolean sigV4) {
        if (sigV4) {
            return ConsolePaths.Access.SIGV4;
        }
        if ("off".equals(console) || ("auto".equals(console) && !isLoopback(host))) {
            return ConsolePaths.Access.OFF;
        }
        return ConsolePaths.Access.ON;
    }

    private RequestLog openLog() throws Invalid {
        if (requestLog == null) {
            return null;
        }
        try {
            return RequestLog.open(requestLog);
        } catch (IOException e) {
            throw new Invalid("--request-log " + requestLog + ": cannot be opened (" + e.getMessage() + ")");
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
