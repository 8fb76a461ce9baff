package dev.kumiko.server.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The --peer REGION=URL values: what is taken, and the one line each bad value is refused with. */
class PeersTest {
    @Test
    void takesEachPeerInOrder() throws Peers.Invalid {
        Map<String, URI> peers = Peers.parse(
                List.of("eu-west-1=http://127.0.0.1:8001", "ap-south-1=https://kumiko.example:443"), "us-east-1");
        assertThat(peers.keySet()).containsExactly("eu-west-1", "ap-south-1");
        assertThat(peers.get("eu-west-1")).isEqualTo(URI.create("http://127.0.0.1:8001"));
    }

    @Test
    void refusesWhatCannotBeAPeer() {
        assertRefused(
                "eu-west-1", "--peer must be REGION=URL, e.g. --peer eu-west-1=http://127.0.0.1:8001, not 'eu-west-1'");
        assertRefused(
                "=http://x:1",
                "--peer must be REGION=URL, e.g. --peer eu-west-1=http://127.0.0.1:8001, not '=http://x:1'");
        assertRefused(
                "eu west=http://x:1",
                "--peer eu west=http://x:1: a region name is 1 to 64 letters, digits and '-', not 'eu west'");
        assertRefused("us-east-1=http://x:1", "--peer us-east-1=http://x:1: us-east-1 is this server's own --region");
        assertRefused(
                "eu-west-1=ftp://x:1",
                "--peer eu-west-1=ftp://x:1: the URL must be http://HOST:PORT or https://HOST:PORT");
        assertRefused("eu-west-1=http://x y", "--peer eu-west-1=http://x y: 'http://x y' is not a URL");
        assertThatThrownBy(() -> Peers.parse(List.of("eu-west-1=http://a:1"), "my_region"))
                .hasMessage("--region my_region cannot have peers: a region name is 1 to 64 letters, digits and '-'");
        assertThat(Peers.validRegion("my_region")).isFalse();
        assertThatThrownBy(() -> Peers.parse(List.of("eu-west-1=http://a:1", "eu-west-1=http://b:1"), "us-east-1"))
                .hasMessage("--peer eu-west-1 is given twice");
    }

    private static void assertRefused(String value, String message) {
        assertThatThrownBy(() -> Peers.parse(List.of(value), "us-east-1"))
                .isInstanceOf(Peers.Invalid.class)
                .hasMessage(message);
    }
}
