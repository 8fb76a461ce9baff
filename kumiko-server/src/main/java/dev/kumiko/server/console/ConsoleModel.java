package dev.kumiko.server.console;

import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The optional model file that names a table's entity types for the console
 * ({@code --console-model=FILE}, docs/console.md):
 * <pre>{"entities": [{"name": "Message", "table": "Chat", "pk": "CHATROOM#", "sk": "MESSAGE#"}]}</pre>
 * An item is of the first entity whose {@code pk} and {@code sk} prefixes its keys start with
 * ({@code table} and {@code sk} optional). Checked when the server starts and served as it is.
 */
public final class ConsoleModel {
    static final long FILE_BYTES_MAX = 1024 * 1024;
    static final byte[] NONE = "{\"entities\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    /** A model file that cannot be used, with a message that names the problem. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private ConsoleModel() {}

    /** The file's bytes, once checked. */
    public static byte[] load(Path file) throws Invalid {
        byte[] bytes;
        try {
            if (Files.size(file) > FILE_BYTES_MAX) {
                throw new Invalid("--console-model " + file + ": larger than " + FILE_BYTES_MAX + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new Invalid("--console-model " + file + ": cannot be read (" + e.getMessage() + ")");
        }
        check(file, bytes);
        return bytes;
    }

    private static void check(Path file, byte[] bytes) throws Invalid {
        Map<String, Object> root;
        try {
            root = JsonTree.parseObject(bytes, 0, bytes.length);
        } catch (DynamoException e) {
            throw new Invalid("--console-model " + file + ": not a JSON object");
        }
        if (!(root.get("entities") instanceof List<?> entities)) {
            throw new Invalid("--console-model " + file + ": needs an \"entities\" array");
        }
        for (Object e : entities) {
            if (!(e instanceof Map<?, ?> m) || !(m.get("name") instanceof String) || !(m.get("pk") instanceof String)
                    || (m.containsKey("sk") && !(m.get("sk") instanceof String))
                    || (m.containsKey("table") && !(m.get("table") instanceof String))) {
                throw new Invalid("--console-model " + file + ": each entity needs a string \"name\" and \"pk\" "
                        + "(and optionally string \"sk\" and \"table\")");
            }
        }
    }
}
