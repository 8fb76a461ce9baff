package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.AccessPattern;
import dev.kumiko.tools.model.Model.Design;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a model against an endpoint: per design, a fresh table, the sample data, every access pattern
 * measured once, then the table dropped (unless kept).
 */
public final class ModelCheck {
    /** Check settings: --scale, the seed of the generator, table names, whether to keep the tables. */
    public record Settings(int scale, long seed, String tableSuffix, boolean keepTables, Prices prices) {}

    private ModelCheck() {}

    /** Runs the model at {@code endpoint}; {@code endpointLabel} is how the report names it. */
    public static Report run(Model model, java.net.URI endpoint, String endpointLabel, Settings settings) {
        DynamoClient client = new DynamoClient(endpoint);
        List<Report.DesignResult> results = new ArrayList<>();
        List<Design> designs = new ArrayList<>();
        designs.add(model.main());
        designs.addAll(model.alternatives());
        long now = System.currentTimeMillis() / 1000;
        for (Design d : designs) {
            results.add(runDesign(model, d, client, settings, now));
        }
        return new Report(model, endpointLabel, settings.scale(), settings.prices(), List.copyOf(results));
    }

    private static Report.DesignResult runDesign(
            Model model, Design d, DynamoClient client, Settings settings, long nowEpochSeconds) {
        SampleData data = new SampleData(d, model.partitions(), settings.scale(), settings.seed(), nowEpochSeconds);
        String tableName = tableName(model, d, settings);
        TableSetup.deleteIfExists(client, tableName);
        TableSetup.create(client, d.table(), tableName);
        try {
            TableSetup.load(client, tableName, data.items());
            PatternRunner runner = new PatternRunner(client, tableName, data);
            List<PatternResult> patterns = new ArrayList<>();
            for (AccessPattern p : d.patterns()) {
                patterns.add(PatternResult.of(p, runner.run(p)));
            }
            Storage storage = Storage.of(data);
            double billedBytes = storage.expectedBytes();
            return new Report.DesignResult(
                    d, tableName, List.copyOf(patterns), storage, Cost.of(patterns, billedBytes, settings.prices()));
        } finally {
            if (!settings.keepTables()) {
                TableSetup.deleteIfExists(client, tableName);
            }
        }
    }

    /** The table's name from the model, plus the design (for alternatives) and the run's suffix. */
    @SuppressWarnings("ReferenceEquality") // the main design is one instance; an alternative may equal it
    private static String tableName(Model model, Design d, Settings settings) {
        String name = d.table().name();
        if (d != model.main() && name.equals(model.main().table().name())) {
            name = name + "-" + d.name().replaceAll("[^A-Za-z0-9_.-]", "_");
        }
        return settings.tableSuffix() == null || settings.tableSuffix().isEmpty()
                ? name
                : name + settings.tableSuffix();
    }
}
