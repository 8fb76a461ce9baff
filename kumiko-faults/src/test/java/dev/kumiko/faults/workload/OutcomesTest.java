package dev.kumiko.faults.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Histories;
import dev.kumiko.faults.history.JsonLines;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class OutcomesTest {
    @TempDir
    Path dir;

    @Test
    void aRefusedConnectionIsAFailureAndASilentServerAnUnknownOutcome() throws Exception {
        Path file = dir.resolve("h.jsonl");
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (Recorder recorder = new Recorder(file);
                ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
                DynamoDbClient refused = Clients.of(URI.create("http://127.0.0.1:" + closedPort), 30_000);
                DynamoDbClient hanging = Clients.of(URI.create("http://127.0.0.1:" + silent.getLocalPort()), 500)) {
            // The silent socket accepts connections (backlog) but never answers: a paused server.
            assertThat(Calls.record(recorder, 0, "write", "k", 1L, () -> put(refused)))
                    .isEqualTo(EventType.FAIL);
            assertThat(Calls.record(recorder, 1, "write", "k", 2L, () -> put(hanging)))
                    .isEqualTo(EventType.INFO);
        }
        assertThat(Histories.operations(JsonLines.read(file)))
                .extracting(op -> op.outcome())
                .containsExactly(EventType.FAIL, EventType.INFO);
    }

    private static Object put(DynamoDbClient client) {
        client.putItem(b -> b.tableName("t").item(Map.of("k", AttributeValue.fromS("x"))));
        return "done";
    }
}
