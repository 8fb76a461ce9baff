package dev.kumiko.faults.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesTest {
    @TempDir
    Path dir;

    @Test
    void eventsSurviveAWriteAndARead() throws IOException {
        List<Event> events = List.of(
                new Event(0, 10, 1, EventType.INVOKE, "cas", "r1", Arrays.asList(null, 3L)),
                new Event(1, 11, 1, EventType.OK, "cas", "r1", true),
                new Event(2, 12, 2, EventType.OK, "read", "bank", Map.of("a", 5L, "b", "x")),
                new Event(3, 13, 3, EventType.INFO, "read", "l1", null));
        Path file = dir.resolve("h.jsonl");
        StringBuilder text = new StringBuilder();
        for (Event e : events) {
            text.append(JsonLines.line(e)).append('\n');
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
        assertThat(JsonLines.read(file)).isEqualTo(events);
        assertThat(JsonLines.line(events.get(0)))
                .isEqualTo("{\"index\":0,\"time_nanos\":10,\"process\":1,\"type\":\"invoke\",\"f\":\"cas\","
                        + "\"key\":\"r1\",\"value\":[null,3]}");
    }

    @Test
    void aBadLineNamesItsNumber() throws IOException {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(
                file, JsonLines.line(new Event(0, 0, 0, EventType.INVOKE, "read", "k", null)) + "\n{\"index\":1}\n");
        assertThatThrownBy(() -> JsonLines.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 2");
    }

    @Test
    void invocationsPairWithTheirCompletionsAndOpenOnesAreUnknown() {
        List<Event> events = List.of(
                new Event(0, 0, 1, EventType.INVOKE, "write", "k", 1L),
                new Event(1, 0, 2, EventType.INVOKE, "write", "k", 2L),
                new Event(2, 0, 1, EventType.INFO, "write", "k", null),
                new Event(3, 0, 3, EventType.INVOKE, "read", "k", null),
                new Event(4, 0, 3, EventType.OK, "read", "k", 2L));
        List<Operation> ops = Histories.operations(events);
        assertThat(ops).hasSize(3);
        assertThat(ops.get(0).outcome()).isEqualTo(EventType.INFO);
        assertThat(ops.get(0).completeIndex()).isEqualTo(Operation.OPEN);
        assertThat(ops.get(1).outcome()).isEqualTo(EventType.INFO);
        assertThat(ops.get(2).result()).isEqualTo(2L);
        assertThat(ops.get(2).completeIndex()).isEqualTo(4);
    }

    @Test
    void aProcessWithTwoOpenOperationsIsRefused() {
        List<Event> events = List.of(
                new Event(0, 0, 1, EventType.INVOKE, "write", "k", 1L),
                new Event(1, 0, 1, EventType.INVOKE, "write", "k", 2L));
        assertThatThrownBy(() -> Histories.operations(events)).isInstanceOf(IllegalArgumentException.class);
        List<Event> stray = List.of(new Event(0, 0, 1, EventType.OK, "write", "k", null));
        assertThatThrownBy(() -> Histories.operations(stray)).isInstanceOf(IllegalArgumentException.class);
    }
}
