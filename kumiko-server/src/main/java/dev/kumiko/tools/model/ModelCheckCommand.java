package dev.kumiko.tools.model;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.memory.MemoryStore;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kumiko model check MODEL}: creates the model's table, loads sample data, runs every access pattern,
 * prints what each costs and exits 1 when a pattern exceeds its budget or finds nothing (2 when the check
 * cannot run: an invalid model, an undefined template parameter, an endpoint that fails).
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = "Run a model's access patterns against DynamoDB's API and report their capacity and cost.")
public final class ModelCheckCommand implements Callable<Integer> {
    public static final int EXIT_OK = 0;
    /** A budget exceeded or a read that found nothing: the design fails the check. */
    public static final int EXIT_BUDGET_EXCEEDED = 1;

    public static final int EXIT_CANNOT_CHECK = 2;
    static final int SCALE_MAX = 1000;
    static final java.util.List<String> FORMATS = java.util.List.of("text", "markdown", "json", "junit");
    static final String IN_PROCESS_LABEL = "in-process Kumiko (memory store)";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "MODEL", description = "The model file (JSON).")
    Path modelFile;

    @Option(
            names = "--endpoint",
            paramLabel = "URL",
            description = "A DynamoDB-compatible endpoint (unsigned requests). Default: an in-process Kumiko "
                    + "server with the memory store on a free loopback port.")
    URI endpoint;

    @Option(
            names = "--scale",
            defaultValue = "10",
            description = "Items per item collection in the sample data (default: ${DEFAULT-VALUE}).")
    int scale;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the sample data (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--format",
            defaultValue = "text",
            description = "text, markdown, json or junit (JUnit XML for CI test reports; default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = "--table-suffix",
            defaultValue = "-model-check",
            description = "Appended to the model's table names, so a check never touches a real table; the "
                    + "tables are deleted first if they exist (default: ${DEFAULT-VALUE}).")
    String tableSuffix;

    @Option(names = "--keep-tables", description = "Leave the tables and their sample data in place afterwards.")
    boolean keepTables;

    @Option(
            names = "--price-read-request-units",
            paramLabel = "USD",
            description = "On-demand price per million " + "read request units (default: ${DEFAULT-VALUE}, us-east-1).",
            defaultValue = "0.125")
    double priceRead;

    @Option(
            names = "--price-write-request-units",
            paramLabel = "USD",
            description =
                    "On-demand price per million " + "write request units (default: ${DEFAULT-VALUE}, us-east-1).",
            defaultValue = "0.625")
    double priceWrite;

    @Option(
            names = "--price-rcu-hour",
            paramLabel = "USD",
            description = "Provisioned price per RCU-hour " + "(default: ${DEFAULT-VALUE}, us-east-1).",
            defaultValue = "0.00013")
    double priceRcuHour;

    @Option(
            names = "--price-wcu-hour",
            paramLabel = "USD",
            description = "Provisioned price per WCU-hour " + "(default: ${DEFAULT-VALUE}, us-east-1).",
            defaultValue = "0.00065")
    double priceWcuHour;

    @Option(
            names = "--price-storage-gb-month",
            paramLabel = "USD",
            description = "Storage price per GB-month " + "(default: ${DEFAULT-VALUE}, us-east-1).",
            defaultValue = "0.25")
    double priceStorage;

    @Option(
            names = "--provisioned-utilization",
            description = "Target utilization that provisioned capacity is "
                    + "sized for, 0 < u <= 1 (default: ${DEFAULT-VALUE}, auto scaling's default).",
            defaultValue = "0.7")
    double utilization;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String problem = checkOptions();
        if (problem != null) {
            err.println("kumiko model check: " + problem);
            return EXIT_CANNOT_CHECK;
        }
        Report report;
        try {
            Model model = ModelReader.read(modelFile);
            ModelCheck.Settings settings = new ModelCheck.Settings(
                    scale,
                    seed,
                    tableSuffix,
                    keepTables,
                    new Prices(priceRead, priceWrite, priceRcuHour, priceWcuHour, priceStorage, utilization));
            report = endpoint != null
                    ? ModelCheck.run(model, endpoint, endpoint.toString(), settings)
                    : inProcess(model, settings);
        } catch (ModelError e) {
            err.println("kumiko model check: " + e.getMessage());
            err.flush();
            if (format.equals("junit")) {
                // CI reads the report file: without one, its test view would show nothing, not the error.
                out.print(ReportJunit.error(modelFile.toString(), e.getMessage()));
                out.flush();
            }
            return EXIT_CANNOT_CHECK;
        }
        out.print(
                switch (format) {
                    case "json" -> ReportJson.render(report);
                    case "markdown" -> ReportText.render(report, true);
                    case "junit" -> ReportJunit.render(report);
                    default -> ReportText.render(report, false);
                });
        out.flush();
        for (String v : report.failures()) {
            err.println("kumiko model check: " + v);
        }
        err.flush();
        return report.failures().isEmpty() ? EXIT_OK : EXIT_BUDGET_EXCEEDED;
    }

    private String checkOptions() {
        if (!FORMATS.contains(format)) {
            return "--format must be text, markdown, json or junit"
                    + dev.kumiko.engine.base.Nearest.hint(format, FORMATS);
        }
        if (scale < 1 || scale > SCALE_MAX) {
            return "--scale must be between 1 and " + SCALE_MAX;
        }
        if (!(utilization > 0 && utilization <= 1)) {
            return "--provisioned-utilization must be in (0, 1]";
        }
        if (priceRead < 0 || priceWrite < 0 || priceRcuHour < 0 || priceWcuHour < 0 || priceStorage < 0) {
            return "prices must not be negative";
        }
        return null;
    }

    /** The same HTTP path as with --endpoint, to a Kumiko server started here and stopped afterwards. */
    private static Report inProcess(Model model, ModelCheck.Settings settings) {
        Engine engine = Engine.open(new MemoryStore(), Clock.SYSTEM, EngineSettings.DEFAULTS);
        KumikoServer server = null;
        try {
            server = new KumikoServer(ServerConfig.defaults("127.0.0.1", 0, "us-east-1")).start(new Operations(engine));
            // The label leaves the ephemeral port out, so that a report committed to a repository only
            // changes when a measurement does.
            return ModelCheck.run(
                    model, URI.create("http://127.0.0.1:" + server.port() + "/"), IN_PROCESS_LABEL, settings);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelError("interrupted while starting the in-process server");
        } finally {
            if (server != null) {
                server.close();
            }
            engine.close();
        }
    }
}
