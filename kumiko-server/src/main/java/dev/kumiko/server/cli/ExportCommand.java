package dev.kumiko.server.cli;

import dev.kumiko.engine.base.Nearest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kumiko export TABLE --to DIR}: the table's items as of now, in DynamoDB's export layout
 * ({@code DIR/AWSDynamoDB/ID/...}), plus {@code DIR/kumiko-table.json}: the table's key schema and
 * indexes as ImportTable's TableCreationParameters, which {@code kumiko import} reads back.
 */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        description = "Export a table to a local folder in DynamoDB's export format (DynamoDB JSON or Ion).")
public final class ExportCommand implements Callable<Integer> {
    static final String TABLE_FILE = "kumiko-table.json";
    static final String NAME = "kumiko export";
    static final java.util.List<String> FORMATS = java.util.List.of("DYNAMODB_JSON", "ION");

    @Parameters(index = "0", paramLabel = "TABLE", description = "The table to export.")
    String table;

    @Option(names = "--to", required = true, paramLabel = "DIR", description = "Folder to write the export into.")
    Path to;

    @Option(
            names = "--format",
            defaultValue = "DYNAMODB_JSON",
            description = "DYNAMODB_JSON or ION (default: ${DEFAULT-VALUE}).")
    String format;

    @Mixin
    KumikoTarget target = new KumikoTarget();

    @Override
    public Integer call() throws Exception {
        Path dir = to.toAbsolutePath().normalize();
        if (!FORMATS.contains(format)) {
            System.err.println(NAME + ": --format must be DYNAMODB_JSON or ION" + Nearest.hint(format, FORMATS));
            return StartupChecks.EXIT_USAGE;
        }
        DynamoCaller opened;
        try {
            opened = target.open(dir.resolve("import-logs"), true);
        } catch (StartupChecks.Failure e) {
            System.err.println(NAME + ": " + e.getMessage());
            return e.exitCode;
        }
        Files.createDirectories(dir);
        try (DynamoCaller caller = opened) {
            @SuppressWarnings("unchecked")
            Map<String, Object> t = (Map<String, Object>)
                    caller.call("DescribeTable", Map.of("TableName", table)).get("Table");
            Files.write(dir.resolve(TABLE_FILE), DynamoCaller.Json.write(creationParameters(t)));
            @SuppressWarnings("unchecked")
            Map<String, Object> started = (Map<String, Object>) caller.call(
                            "ExportTableToPointInTime",
                            Map.of("TableArn", t.get("TableArn"), "S3Bucket", "file:" + dir, "ExportFormat", format))
                    .get("ExportDescription");
            Map<String, Object> done = KumikoTarget.await(
                    caller,
                    "DescribeExport",
                    "ExportArn",
                    (String) started.get("ExportArn"),
                    "ExportDescription",
                    "ExportStatus",
                    d -> "export " + d.get("ExportStatus") + ", "
                            + (d.containsKey("ItemCount")
                                    ? d.get("ItemCount").toString().replaceAll("\\D", "")
                                    : "0") + " items");
            if (!"COMPLETED".equals(done.get("ExportStatus"))) {
                System.err.println(NAME + ": export failed: " + done.get("FailureMessage"));
                return 1;
            }
            System.out.println(dir.resolve((String) done.get("ExportManifest")));
            return 0;
        } catch (DynamoCaller.Failure e) {
            System.err.println(NAME + ": " + e.getMessage() + fix(e.getMessage()));
            return 1;
        }
    }

    /** What to do about a table that is not there: the one failure whose fix the answer does not say. */
    private static String fix(String failure) {
        return failure.startsWith("ResourceNotFoundException") ? "; check the name (ListTables shows them)" : "";
    }

    /** DescribeTable's answer as TableCreationParameters (ImportTable creates no local secondary indexes). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> creationParameters(Map<String, Object> t) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("TableName", t.get("TableName"));
        p.put("AttributeDefinitions", t.get("AttributeDefinitions"));
        p.put("KeySchema", t.get("KeySchema"));
        Map<String, Object> billing = (Map<String, Object>) t.get("BillingModeSummary");
        boolean onDemand = billing != null && "PAY_PER_REQUEST".equals(billing.get("BillingMode"));
        p.put("BillingMode", onDemand ? "PAY_PER_REQUEST" : "PROVISIONED");
        if (!onDemand) {
            p.put("ProvisionedThroughput", throughput((Map<String, Object>) t.get("ProvisionedThroughput")));
        }
        List<Object> indexes = new ArrayList<>();
        for (Object o : (List<Object>) t.getOrDefault("GlobalSecondaryIndexes", List.of())) {
            Map<String, Object> x = (Map<String, Object>) o;
            Map<String, Object> index = new LinkedHashMap<>();
            index.put("IndexName", x.get("IndexName"));
            index.put("KeySchema", x.get("KeySchema"));
            index.put("Projection", x.get("Projection"));
            if (!onDemand) {
                index.put("ProvisionedThroughput", throughput((Map<String, Object>) x.get("ProvisionedThroughput")));
            }
            indexes.add(index);
        }
        if (!indexes.isEmpty()) {
            p.put("GlobalSecondaryIndexes", indexes);
        }
        return p;
    }

    private static Map<String, Object> throughput(Map<String, Object> described) {
        return Map.of(
                "ReadCapacityUnits",
                described.get("ReadCapacityUnits"),
                "WriteCapacityUnits",
                described.get("WriteCapacityUnits"));
    }
}
