package dev.kumiko.server.cli;

import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.tools.model.ModelError;
import dev.kumiko.tools.model.ModelForConsole;
import dev.kumiko.tools.model.ModelReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The optional model file that names a table's entity types for the console
 * ({@code --console-model=FILE}, docs/console.md). It is the model file {@code kumiko model check} reads
 * (docs/modeling.md): entities are recognised from their key templates, and the file is checked as
 * {@code model check} checks it. The older console-only file, entities named by key prefixes,
 * <pre>{"entities": [{"name": "Message", "table": "Chat", "pk": "CHATROOM#", "sk": "MESSAGE#"}]}</pre>
 * is still read, since consoles were started with it before the two were one format; it is served as it is.
 * Here, with the command line, since reading a model file is the model tooling's (dev.kumiko.tools.model),
 * a layer above the console's; the console only serves the bytes this makes.
 */
public final class ConsoleModelFile {
    // The same bound as model check's: one file serves both.
    static final long FILE_BYTES_MAX = ModelReader.FILE_BYTES_MAX;

    /** A model file that cannot be used, with a message that names the problem. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    private ConsoleModelFile() {}

    /** What the console is served for the file, once checked. */
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
        Map<String, Object> root = parse(bytes);
        if (root == null || isModelFile(root)) {
            return fromModelFile(file);
        }
        checkPrefixFile(file, root);
        return bytes;
    }

    /** The tree, or null when the file is not JSON (the model reader then says where it breaks). */
    private static Map<String, Object> parse(byte[] bytes) {
        try {
            return JsonTree.parseObject(bytes, 0, bytes.length);
        } catch (DynamoException e) {
            return null;
        }
    }

    /** A model file has a table, access patterns or entities with key templates; the older file has none. */
    static boolean isModelFile(Map<String, Object> root) {
        if (root.containsKey("table") || root.containsKey("accessPatterns")) {
            return true;
        }
        if (root.get("entities") instanceof List<?> entities) {
            for (Object e : entities) {
                if (e instanceof Map<?, ?> m && m.containsKey("keys")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] fromModelFile(Path file) throws Invalid {
        try {
            return ModelForConsole.json(ModelReader.read(file));
        } catch (ModelError e) {
            throw new Invalid("--console-model: " + e.getMessage());
        }
    }

    private static void checkPrefixFile(Path file, Map<String, Object> root) throws Invalid {
        if (!(root.get("entities") instanceof List<?> entities)) {
            throw new Invalid("--console-model " + file + ": not a model file: it needs a \"table\" and "
                    + "\"entities\" with key templates, as `kumiko model check` reads (docs/modeling.md)");
        }
        for (Object e : entities) {
            if (!(e instanceof Map<?, ?> m)
                    || !(m.get("name") instanceof String)
                    || !(m.get("pk") instanceof String)
                    || (m.containsKey("sk") && !(m.get("sk") instanceof String))
                    || (m.containsKey("table") && !(m.get("table") instanceof String))) {
                throw new Invalid("--console-model " + file + ": each entity of a prefix file needs a string "
                        + "\"name\" and \"pk\" (and optionally \"sk\" and \"table\"); a model file gives a "
                        + "\"table\" and each entity's \"keys\" (docs/modeling.md)");
            }
        }
    }
}
