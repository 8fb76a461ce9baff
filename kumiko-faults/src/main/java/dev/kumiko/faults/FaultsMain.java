package dev.kumiko.faults;

import dev.kumiko.faults.check.BankChecker;
import dev.kumiko.faults.check.ListAppendChecker;
import dev.kumiko.faults.check.RegisterChecker;
import dev.kumiko.faults.check.StreamsChecker;
import dev.kumiko.faults.check.Verdict;
import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Histories;
import dev.kumiko.faults.history.JsonLines;
import dev.kumiko.faults.history.Operation;
import dev.kumiko.faults.workload.BankWorkload;
import dev.kumiko.faults.workload.ListAppendWorkload;
import dev.kumiko.faults.workload.Recorder;
import dev.kumiko.faults.workload.RegisterWorkload;
import dev.kumiko.faults.workload.StreamsWorkload;
import dev.kumiko.faults.workload.Workload;
import dev.kumiko.faults.workload.WorkloadRun;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command line of scripts/faults.sh:
 *
 * <pre>
 * run WORKLOAD --endpoints URL[,URL...] --history FILE [--seconds 60] [--threads 6]
 *     [--call-timeout-millis 3000] [--final-seconds 90] [--seed 1]
 * check WORKLOAD FILE
 * </pre>
 *
 * WORKLOAD is register, bank, list-append or streams. {@code check} prints one line and exits 0 for a valid
 * history, 1 for an invalid one, 3 when the checker could not decide; 2 is a usage error.
 */
public final class FaultsMain {
    private static final int EXIT_INVALID = 1;
    private static final int EXIT_USAGE = 2;
    private static final int EXIT_UNKNOWN = 3;

    private FaultsMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
        if (args.length < 2) {
            return usage("a command and a workload");
        }
        String workload = args[1];
        if (!List.of("register", "bank", "list-append", "streams").contains(workload)) {
            return usage("unknown workload " + workload);
        }
        return switch (args[0]) {
            case "run" -> runWorkload(workload, options(args), out);
            case "check" -> args.length == 3 ? check(workload, Path.of(args[2]), out) : usage("check WORKLOAD FILE");
            default -> usage("unknown command " + args[0]);
        };
    }

    private static int usage(String problem) {
        System.err.println("faults: " + problem);
        System.err.println("usage: run WORKLOAD --endpoints URL[,URL...] --history FILE [--seconds N] [--threads N]"
                + " [--call-timeout-millis N] [--final-seconds N] [--seed N]");
        System.err.println("       check WORKLOAD FILE        (WORKLOAD: register, bank, list-append, streams)");
        return EXIT_USAGE;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 2; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected an option, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private static int runWorkload(String name, Map<String, String> o, PrintStream out)
            throws IOException, InterruptedException {
        if (!o.containsKey("endpoints") || !o.containsKey("history")) {
            return usage("run needs --endpoints and --history");
        }
        List<URI> endpoints = new ArrayList<>();
        for (String e : o.get("endpoints").split(",")) {
            endpoints.add(URI.create(e));
        }
        WorkloadRun.Options options = new WorkloadRun.Options(
                endpoints,
                Integer.parseInt(o.getOrDefault("threads", "6")),
                Long.parseLong(o.getOrDefault("seconds", "60")),
                Long.parseLong(o.getOrDefault("call-timeout-millis", "3000")),
                Long.parseLong(o.getOrDefault("final-seconds", "90")),
                Long.parseLong(o.getOrDefault("seed", "1")));
        long start = System.nanoTime();
        try (Recorder recorder = new Recorder(Path.of(o.get("history")))) {
            WorkloadRun.run(workload(name), options, recorder);
            out.printf(
                    Locale.ROOT,
                    "faults: %s ran %.0f s over %d servers: %d operations (ok %d, fail %d, unknown %d)%n",
                    name,
                    (System.nanoTime() - start) / 1e9,
                    endpoints.size(),
                    recorder.count(EventType.INVOKE),
                    recorder.count(EventType.OK),
                    recorder.count(EventType.FAIL),
                    recorder.count(EventType.INFO) + openAtEnd(recorder));
            recorder.errors().forEach((error, n) -> out.printf(Locale.ROOT, "faults:   error %s: %d%n", error, n));
        }
        return 0;
    }

    private static long openAtEnd(Recorder recorder) {
        return recorder.count(EventType.INVOKE)
                - recorder.count(EventType.OK)
                - recorder.count(EventType.FAIL)
                - recorder.count(EventType.INFO);
    }

    private static Workload workload(String name) {
        return switch (name) {
            case "register" -> new RegisterWorkload(4, 100);
            case "bank" -> new BankWorkload(5, 100);
            case "list-append" -> new ListAppendWorkload(4, 200);
            case "streams" -> new StreamsWorkload(4, 200);
            default -> throw new IllegalArgumentException(name);
        };
    }

    static int check(String name, Path file, PrintStream out) throws IOException {
        List<Operation> operations = Histories.operations(JsonLines.read(file));
        Verdict verdict = switch (name) {
            case "register" -> new RegisterChecker().check(operations);
            case "bank" -> new BankChecker().check(operations);
            case "list-append" -> new ListAppendChecker().check(operations);
            case "streams" -> new StreamsChecker().check(operations);
            default -> throw new IllegalArgumentException(name);
        };
        out.printf(
                Locale.ROOT,
                "faults: %s history %s: %s, %d operations checked%s%n",
                name,
                file,
                verdict.result(),
                verdict.operationsChecked(),
                verdict.detail().isEmpty() ? "" : ": " + verdict.detail());
        return switch (verdict.result()) {
            case VALID -> 0;
            case INVALID -> EXIT_INVALID;
            case UNKNOWN -> EXIT_UNKNOWN;
        };
    }
}
