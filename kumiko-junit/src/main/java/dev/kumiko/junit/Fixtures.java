package dev.kumiko.junit;

import java.util.List;

/** Creates the {@link KumikoTables} and loads the {@link KumikoItems} of a test class. */
final class Fixtures {
    /** The answer of a BatchWriteItem that wrote everything. */
    private static final String NOTHING_UNPROCESSED = "\"UnprocessedItems\":{}";

    private final List<String> tablePatterns;
    private final List<String> itemPatterns;

    Fixtures(List<String> tablePatterns, List<String> itemPatterns) {
        this.tablePatterns = List.copyOf(tablePatterns);
        this.itemPatterns = List.copyOf(itemPatterns);
    }

    boolean isEmpty() {
        return tablePatterns.isEmpty() && itemPatterns.isEmpty();
    }

    void load(ClassLoader loader, WireRequests wire) {
        for (String pattern : tablePatterns) {
            for (ClassPathFiles.Resource r : ClassPathFiles.read(loader, pattern)) {
                wire.send("CreateTable", r.text(), r.name());
            }
        }
        for (String pattern : itemPatterns) {
            for (ClassPathFiles.Resource r : ClassPathFiles.read(loader, pattern)) {
                loadItems(wire, r);
            }
        }
    }

    private static void loadItems(WireRequests wire, ClassPathFiles.Resource r) {
        if (r.name().endsWith(".jsonl")) {
            String[] lines = r.text().split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (!lines[i].isBlank()) {
                    wire.send("PutItem", lines[i], r.name() + ":" + (i + 1));
                }
            }
            return;
        }
        String answer = wire.send("BatchWriteItem", "{\"RequestItems\":" + r.text() + "}", r.name());
        if (!answer.replace(" ", "").contains(NOTHING_UNPROCESSED)) {
            throw new IllegalStateException(r.name() + ": BatchWriteItem left items unprocessed: " + answer);
        }
    }
}
