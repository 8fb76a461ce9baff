package dev.kumiko.testcontainers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The Kumiko version this module was built with (kumiko.properties, filled in by the build). */
final class KumikoVersion {
    private static final String RESOURCE = "kumiko.properties";

    private KumikoVersion() {}

    static String current() {
        Properties properties = new Properties();
        try (InputStream in = KumikoVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from kumiko-testcontainers' jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = properties.getProperty("version", "");
        if (version.isEmpty() || version.startsWith("$")) {
            throw new IllegalStateException(RESOURCE + " names no version: " + version);
        }
        return version;
    }
}
