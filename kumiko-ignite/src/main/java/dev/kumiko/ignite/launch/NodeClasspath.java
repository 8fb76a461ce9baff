package dev.kumiko.ignite.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class path of an Ignite server node: Apache Ignite's own artifacts from Maven Central
 * (org.apache.ignite:ignite-runner and its dependencies). In the distribution they come unpacked
 * from kumiko-ignite-node-VERSION.tar.gz into lib/ignite-node, which bin/kumiko names in the
 * system property {@value #BUNDLED_PROPERTY}; in a clone (or without that archive) they are
 * resolved once by Maven into a directory and reused. Either way a node is plain Apache Ignite.
 */
final class NodeClasspath {
    static final String IGNITE_VERSION = "3.1.0";
    static final long RESOLVE_WAIT_MINUTES = 20;
    /** The directory of the node's jars that came with the distribution. */
    static final String BUNDLED_PROPERTY = "kumiko.ignite.nodeLib";

    private NodeClasspath() {}

    /**
     * The bundled jars when the distribution has them, else libDir/*.jar, resolving into libDir
     * with mvn first when it holds no jars.
     */
    static String resolve(Path libDir) {
        String bundled = System.getProperty(BUNDLED_PROPERTY);
        if (bundled != null && hasJars(Path.of(bundled))) {
            return Path.of(bundled).toAbsolutePath() + "/*";
        }
        if (!hasJars(libDir)) {
            runMaven(libDir);
        }
        return libDir.toAbsolutePath() + "/*";
    }

    private static boolean hasJars(Path dir) {
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".jar"));
        } catch (IOException e) {
            return false;
        }
    }

    private static void runMaven(Path libDir) {
        try {
            Path project = Files.createDirectories(libDir.resolveSibling(libDir.getFileName() + "-resolve"));
            Files.writeString(project.resolve("pom.xml"), pom(), StandardCharsets.UTF_8);
            System.err.println(
                    "kumiko: resolving Apache Ignite " + IGNITE_VERSION + " into " + libDir + " with mvn...");
            Process mvn = new ProcessBuilder(List.of(
                            "mvn",
                            "-B",
                            "-q",
                            "dependency:copy-dependencies",
                            "-DoutputDirectory=" + libDir.toAbsolutePath(),
                            "-DincludeScope=runtime"))
                    .directory(project.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            project.resolve("mvn.log").toFile()))
                    .start();
            if (!mvn.waitFor(RESOLVE_WAIT_MINUTES, TimeUnit.MINUTES) || mvn.exitValue() != 0 || !hasJars(libDir)) {
                mvn.destroyForcibly();
                throw new IllegalStateException("mvn could not resolve Apache Ignite; see " + project.resolve("mvn.log")
                        + " (or pass --node-classpath)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot run mvn to fetch Apache Ignite's node jars: unpack kumiko-ignite-node-VERSION.tar.gz"
                            + " (released beside the distribution) over it, install Maven, or pass --node-classpath",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String pom() {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>dev.kumiko.local</groupId>
                  <artifactId>ignite-node</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                    <dependency>
                      <groupId>org.apache.ignite</groupId>
                      <artifactId>ignite-runner</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <artifactId>maven-dependency-plugin</artifactId>
                        <version>3.8.1</version>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(IGNITE_VERSION);
    }
}
