package dev.kumiko.server.cli;

import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kumiko import --from DIR}: a new table from a folder. A folder {@code kumiko export} wrote
 * (or any DynamoDB export: {@code AWSDynamoDB/ID/manifest-summary.json}) is read in its format; any
 * other folder's files are read as --format says. The table's keys and indexes come from the
 * folder's {@code kumiko-table.json}, or from --key and --sort-key.
 */
@Command(
        name = "import",
        mixinStandardHelpOptions = true,
        description = "Create a table from a local folder of DynamoDB JSON, Ion or CSV files (an export, say).")
public final class ImportCommand implements Callable<Integer> {
    static final String NAME = "kumiko import";

    @Option(names = "--from", required = true, paramLabel = "DIR", description = "Folder to import.")
    Path from;

    @Option(names = "--table", paramLabel = "NAME", description = "Name of the new table (default: the exported one).")
    String table;

    @Option(names = "--format", description = "DYNAMODB_JSON, ION or CSV, for a folder that is not an export.")
    String format;

    @Option(
            names = "--compression",
            defaultValue = "NONE",
            description = "NONE, GZIP or ZSTD, for a folder that is not an export (default: ${DEFAULT-VALUE}).")
    String compression;

    @Option(
            names = "--key",
            paramLabel = "NAME:TYPE",
            description = "Partition key, e.g. pk:S, when the folder has no " + ExportCommand.TABLE_FILE + ".")
    String key;

    @Option(names = "--sort-key", paramLabel = "NAME:TYPE", description = "Sort key, e.g. sk:N.")
    String sortKey;

    @Option(names = "--replace", description = "Delete the table first if it exists (a reset to the folder's data).")
    boolean replace;

    @Mixin
    KumikoTarget target = new KumikoTarget();

    @Override
    public Integer call() throws Exception {
        Path dir = from.toAbsolutePath().normalize();
        Map<String, Object> request = new LinkedHashMap<>();
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("S3Bucket", "file:" + dir);
        Path summary = latestExport(dir);
        String conflict = conflict(dir, summary != null, Files.exists(dir.resolve(ExportCommand.TABLE_FILE)));
        if (conflict != null) {
            System.err.println(NAME + ": " + conflict);
            return StartupChecks.EXIT_USAGE;
        }
        if (summary != null) {
            Map<String, Object> s = read(summary);
            source.put(
                    "S3KeyPrefix",
                    dir.relativize(summary.getParent()).toString().replace('\\', '/') + "/data/");
            request.put("InputFormat", s.get("outputFormat"));
            request.put("InputCompressionType", "GZIP");
        } else if (format == null) {
            System.err.println(
                    NAME + ": " + dir + " holds no export (AWSDynamoDB/*/manifest-summary.json); give --format");
            return StartupChecks.EXIT_USAGE;
        } else {
            request.put("InputFormat", format);
            request.put("InputCompressionType", compression);
        }
        request.put("S3BucketSource", source);
        Map<String, Object> creation = creation(dir);
        if (creation == null) {
            System.err.println(NAME + ": no " + ExportCommand.TABLE_FILE + " in " + dir + "; give --key (and --table)");
            return StartupChecks.EXIT_USAGE;
        }
        request.put("TableCreationParameters", creation);
        String name = (String) creation.get("TableName");
        DynamoCaller opened;
        try {
            opened = target.open(dir.resolve("import-logs"), false);
        } catch (StartupChecks.Failure e) {
            System.err.println(NAME + ": " + e.getMessage());
            return e.exitCode;
        }
        try (DynamoCaller caller = opened) {
            if (replace) {
                deleteIfExists(caller, name);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> started =
                    (Map<String, Object>) caller.call("ImportTable", request).get("ImportTableDescription");
            Map<String, Object> done = KumikoTarget.await(
                    caller,
                    "DescribeImport",
                    "ImportArn",
                    (String) started.get("ImportArn"),
                    "ImportTableDescription",
                    "ImportStatus",
                    d -> "import " + d.get("ImportStatus") + ", " + number(d.get("ProcessedItemCount")) + " items, "
                            + number(d.get("ErrorCount")) + " errors");
            if (!"COMPLETED".equals(done.get("ImportStatus"))) {
                System.err.println(NAME + ": import failed: " + done.get("FailureMessage"));
                return 1;
            }
            System.out.println(name + ": " + number(done.get("ImportedItemCount")) + " items imported, "
                    + number(done.get("ErrorCount")) + " errors");
            return 0;
        } catch (DynamoCaller.Failure e) {
            System.err.println(NAME + ": " + e.getMessage() + fix(e.getMessage()));
            return 1;
        }
    }

    /**
     * Options the folder makes meaningless, which would otherwise be ignored without a word; null when
     * none is. An export says its own format, and kumiko-table.json its own keys.
     */
    String conflict(Path dir, boolean isExport, boolean hasTableFile) {
        if (isExport && format != null) {
            return dir + " is an export, which says its own format: drop --format";
        }
        if (hasTableFile && (key != null || sortKey != null)) {
            return dir + " has " + ExportCommand.TABLE_FILE + ", which gives the table's keys: drop --key and "
                    + "--sort-key (--table still names the new table)";
        }
        if (sortKey != null && key == null) {
            return "--sort-key needs --key (the partition key)";
        }
        return null;
    }

    /** The fix for a table that exists already, which ImportTable's answer does not say. */
    static String fix(String failure) {
        return failure.startsWith("ResourceInUseException")
                ? "; add --replace to delete it and import the folder "
                        + "into a new one, or --table NAME to import under another name"
                : "";
    }

    private Map<String, Object> creation(Path dir) throws IOException {
        Map<String, Object> p;
        Path file = dir.resolve(ExportCommand.TABLE_FILE);
        if (Files.exists(file)) {
            p = new LinkedHashMap<>(read(file));
        } else if (key != null && table != null) {
            p = new LinkedHashMap<>();
            List<Object> definitions = new ArrayList<>();
            List<Object> schema = new ArrayList<>();
            keyElement(key, "HASH", definitions, schema);
            if (sortKey != null) {
                keyElement(sortKey, "RANGE", definitions, schema);
            }
            p.put("AttributeDefinitions", definitions);
            p.put("KeySchema", schema);
            p.put("BillingMode", "PAY_PER_REQUEST");
        } else {
            return null;
        }
        if (table != null) {
            p.put("TableName", table);
        }
        return p;
    }

    private static void keyElement(String spec, String keyType, List<Object> definitions, List<Object> schema) {
        int colon = spec.lastIndexOf(':');
        String name = colon < 0 ? spec : spec.substring(0, colon);
        String type = colon < 0 ? "S" : spec.substring(colon + 1);
        definitions.add(Map.of("AttributeName", name, "AttributeType", type));
        schema.add(Map.of("AttributeName", name, "KeyType", keyType));
    }

    private static void deleteIfExists(DynamoCaller caller, String name) {
        try {
            caller.call("DeleteTable", Map.of("TableName", name));
            System.err.println("kumiko: deleted table " + name);
        } catch (DynamoCaller.Failure e) {
            if (!e.getMessage().startsWith("ResourceNotFoundException")) {
                throw e;
            }
        }
    }

    /** The newest export's manifest-summary.json in dir (export ids begin with their time), or null. */
    private static Path latestExport(Path dir) throws IOException {
        Path root = dir.resolve("AWSDynamoDB");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> ids = Files.list(root)) {
            return ids.map(p -> p.resolve("manifest-summary.json"))
                    .filter(Files::exists)
                    .max(Path::compareTo)
                    .orElse(null);
        }
    }

    private static Map<String, Object> read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return JsonTree.parseObject(bytes, 0, bytes.length);
    }

    private static String number(Object n) {
        return n == null ? "0" : n.toString().replaceAll("[^0-9]", "");
    }
}
