package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An engine's open links no lambda, method reference or string concatenation: in a fresh JVM the
 * first such call site loads the JDK's linking machinery and each one spins a class, which took
 * about a third of a cold Engine.inMemory() (docs/performance-notes.md, start). Checked in a fresh JVM
 * with the class-loading log, since in this one the machinery is loaded already.
 */
class OpenLinksNoLambdaTest {
    private static final String OPENING = "ENGINE-OPENING";
    private static final String OPENED = "ENGINE-OPENED";
    private static final long WAIT_SECONDS_MAX = 60;

    /** Run in the fresh JVM: opens an engine between two markers. */
    public static void main(String[] args) {
        System.out.println(OPENING);
        System.out.flush();
        Engine engine = Engine.inMemory();
        System.out.println(OPENED);
        System.out.flush();
        engine.close();
    }

    @Test
    void anEngineOpensWithoutLinkingACallSite() throws IOException, InterruptedException {
        List<String> atOpen = classesLoadedAtOpen();

        assertThat(atOpen).as("classes loaded at the open").contains(Engine.class.getName());
        // A link spins hidden classes (named "...$$Lambda$N/0x..." for a lambda's, and
        // "java.lang.invoke.LambdaForm$MH/0x..." for the method handles of a lambda or of a string
        // concatenation compiled to invokedynamic); the first lambda also loads its factory.
        assertThat(atOpen).as("hidden classes spun at the open").noneMatch(c -> c.contains("/0x"));
        assertThat(atOpen)
                .as("the lambda factory loaded at the open")
                .doesNotContain("java.lang.invoke.LambdaMetafactory");
    }

    /** The names of the classes the fresh JVM loaded between the two markers. */
    private static List<String> classesLoadedAtOpen() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xlog:class+load=info",
                        "-cp",
                        System.getProperty("java.class.path"),
                        OpenLinksNoLambdaTest.class.getName())
                .redirectErrorStream(true)
                .start();
        List<String> loaded = new ArrayList<>();
        boolean opening = false;
        boolean opened = false;
        for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith(OPENED)) {
                opened = true;
                break;
            }
            opening |= line.startsWith(OPENING);
            int at = line.indexOf("[class,load] ");
            if (opening && at >= 0) {
                loaded.add(line.substring(at + "[class,load] ".length()).split(" ", 2)[0]);
            }
        }
        assertThat(p.waitFor(WAIT_SECONDS_MAX, TimeUnit.SECONDS))
                .as("the fresh JVM ended")
                .isTrue();
        assertThat(opened).as("the fresh JVM opened an engine").isTrue();
        return loaded;
    }
}
