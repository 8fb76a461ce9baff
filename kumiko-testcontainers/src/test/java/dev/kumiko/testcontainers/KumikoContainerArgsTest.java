package dev.kumiko.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What KumikoContainer asks the engine for: the server's arguments, the network and the ports. Needs
 * no Docker engine (nothing is started), so it runs on every build; KumikoContainerTest starts them.
 */
class KumikoContainerArgsTest {
    @Test
    void theDefaultImageIsThisVersionsAndTheServerKeepsItsDataInTheVolume() {
        try (KumikoContainer kumiko = new KumikoContainer()) {
            // The image's name only: asking the container for it would resolve the image on an engine.
            assertThat(KumikoContainer.defaultImageName()).isEqualTo("kumiko:" + System.getProperty("kumiko.version"));
            kumiko.configure();
            assertThat(kumiko.getCommandParts()).containsExactly("--port", "8000", "--data-dir", "/data");
            assertThat(kumiko.getExposedPorts()).containsExactly(KumikoContainer.DEFAULT_PORT);
            assertThat(kumiko.getNetworkMode()).isNull();
            assertThat(kumiko.isInMemory()).isFalse();
        }
    }

    @Test
    void inMemoryOnTheHostsNetworkTheServerTakesTheGivenPort() {
        try (KumikoContainer kumiko =
                new KumikoContainer("kumiko:test").withInMemory().withHostNetwork(18_765)) {
            kumiko.configure();
            assertThat(kumiko.getCommandParts()).containsExactly("--port", "18765", "--in-memory");
            assertThat(kumiko.getExposedPorts()).isEmpty();
            assertThat(kumiko.getNetworkMode()).isEqualTo("host");
            assertThat(kumiko.serverPort()).isEqualTo(18_765);
        }
    }

    @Test
    void aFreePortIsChosenForTheHostsNetworkAndABadPortIsRefused() {
        try (KumikoContainer kumiko = new KumikoContainer("kumiko:test").withHostNetwork()) {
            assertThat(kumiko.serverPort()).isBetween(1, 65_535).isNotEqualTo(KumikoContainer.DEFAULT_PORT);
        }
        try (KumikoContainer kumiko = new KumikoContainer("kumiko:test")) {
            assertThatThrownBy(() -> kumiko.withHostNetwork(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("port 0 is not in 1..65535");
        }
    }

    @Test
    void theEndpointOfAContainerNotStartedIsRefused() {
        try (KumikoContainer kumiko = new KumikoContainer("kumiko:test")) {
            assertThatThrownBy(kumiko::getEndpoint)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not running");
        }
    }
}
