package dev.kumiko.server.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The console's files, read from the jar's {@code console/} resources once and kept in memory
 * (a few tens of KB). Only flat names of known types are served, so a path can never leave the
 * directory.
 */
final class StaticFiles {
    static final String RESOURCE_DIR = "console/";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{0,63}");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml",
            "json", "application/json");

    record File(String contentType, byte[] body) {}

    private final Map<String, File> cache = new ConcurrentHashMap<>();
    private static final File MISSING = new File("", new byte[0]);

    /** The file, or null when there is no such console file. */
    File get(String name) {
        if (!NAME.matcher(name).matches()) {
            return null;
        }
        String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        if (type == null) {
            return null;
        }
        File f = cache.computeIfAbsent(name, n -> load(n, type));
        return isMissing(f) ? null : f;
    }

    @SuppressWarnings("ReferenceEquality") // MISSING is a sentinel: only that instance means "no such file"
    private static boolean isMissing(File f) {
        return f == MISSING;
    }

    private static File load(String name, String type) {
        try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(RESOURCE_DIR + name)) {
            return in == null ? MISSING : new File(type, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("reading console file " + name, e);
        }
    }
}
