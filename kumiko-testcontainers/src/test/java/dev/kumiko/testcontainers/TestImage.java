package dev.kumiko.testcontainers;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the image the tests start, once per JVM: scripts/docker-image.sh on the distribution
 * archive, on a JRE base image made from this machine's JDK by scripts/docker-test-base.sh (no
 * registry is needed), or on the base image named by -Dkumiko.test.docker.baseImage.
 */
final class TestImage {
    /** The image build takes well under a minute; a stuck engine must not hold the build for long. */
    private static final long SCRIPT_TIMEOUT_SECONDS = 600;

    static final String TAG = "kumiko-test:" + KumikoVersion.current();
    private static final String TEST_BASE_TAG = "kumiko-test-jre:17";

    private static boolean built;

    private TestImage() {}

    /** The clone's root: Surefire runs in the module's directory. */
    static Path repoRoot() {
        return Path.of("").toAbsolutePath().getParent();
    }

    static Path archive() {
        return repoRoot().resolve("kumiko-dist/target/kumiko-" + KumikoVersion.current() + ".tar.gz");
    }

    static synchronized String build() throws IOException, InterruptedException {
        if (built) {
            return TAG;
        }
        String base = System.getProperty("kumiko.test.docker.baseImage", "");
        if (base.isEmpty()) {
            run(List.of("bash", "scripts/docker-test-base.sh", TEST_BASE_TAG));
            base = TEST_BASE_TAG;
        }
        run(List.of("bash", "scripts/docker-image.sh", "--base-image", base, "--tag", TAG));
        built = true;
        return TAG;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("kumiko-image", ".log");
        try {
            Process process = new ProcessBuilder(new ArrayList<>(command))
                    .directory(repoRoot().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!process.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        command + " did not finish in " + SCRIPT_TIMEOUT_SECONDS + " s:\n" + Files.readString(log));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        command + " exited with " + process.exitValue() + ":\n" + Files.readString(log));
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
