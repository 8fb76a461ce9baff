package dev.kumiko.engine.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The "did you mean" of the CLI's and the model file's errors: near names, and silence for far ones. */
class NearestTest {
    private static final List<String> SERVE = List.of(
            "--port",
            "--host",
            "--data-dir",
            "--in-memory",
            "--region",
            "--durability",
            "--console",
            "--console-model");

    @Test
    void aTransposedOrMissingLetterFindsTheName() {
        assertThat(Nearest.of("--prot", SERVE)).isEqualTo("--port");
        assertThat(Nearest.of("--hst", SERVE)).isEqualTo("--host");
        assertThat(Nearest.of("--in-memroy", SERVE)).isEqualTo("--in-memory");
        assertThat(Nearest.of("maxRCU", List.of("maxRcu", "maxWcu", "maxItemsRead")))
                .isEqualTo("maxRcu");
    }

    @Test
    void theOnlyNameThatExtendsWhatWasTypedIsFound() {
        assertThat(Nearest.of("--data", SERVE)).isEqualTo("--data-dir");
        // Both --console and --console-model start with "--cons": no hint beats a guess.
        assertThat(Nearest.of("--cons", SERVE)).isNull();
    }

    @Test
    void aNameFarFromEveryCandidateGetsNoHint() {
        assertThat(Nearest.of("--zzz", SERVE)).isNull();
        assertThat(Nearest.hint("--zzz", SERVE)).isEmpty();
        assertThat(Nearest.of("x".repeat(Nearest.NAME_CHARS_MAX + 1), SERVE)).isNull();
        assertThat(Nearest.of("--port", List.of())).isNull();
    }

    @Test
    void distanceCountsEditsAndTranspositions() {
        assertThat(Nearest.distance("port", "port")).isZero();
        assertThat(Nearest.distance("prot", "port")).isEqualTo(1);
        assertThat(Nearest.distance("", "abc")).isEqualTo(3);
        assertThat(Nearest.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Nearest.hint("maxRCU", List.of("maxRcu"))).isEqualTo(" (did you mean \"maxRcu\"?)");
    }
}
