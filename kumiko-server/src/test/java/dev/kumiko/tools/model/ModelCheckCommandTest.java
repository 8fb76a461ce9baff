package dev.kumiko.tools.model;

import static dev.kumiko.tools.model.ModelCheckRun.example;
import static dev.kumiko.tools.model.ModelCheckRun.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;

/** {@code kumiko model check}: budgets and exit codes, --endpoint, flags, and model errors. */
@SuppressWarnings("unchecked")
class ModelCheckCommandTest {
    @TempDir
    Path dir;

    @Test
    void aBudgetBelowTheMeasuredCostExitsOneNamingThePattern() throws IOException {
        String chat = Files.readString(Path.of(example("chat.json")));
        // roomMessages measures 1 RCU at --scale 10; its budget of 2 becomes 0.5.
        String lowered = chat.replace("\"maxRcu\": 2,", "\"maxRcu\": 0.5,");
        assertThat(lowered).isNotEqualTo(chat);
        Path model = write("chat-lowered.json", lowered);

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_BUDGET_EXCEEDED);
        assertThat(run.err()).contains("budget exceeded: chat / roomMessages: RCU 1 > maxRcu 0.5");
        assertThat(run.out()).contains("Budgets exceeded").containsPattern("(?m)^roomMessages .*OVER BUDGET$");
    }

    @Test
    void maxItemsReadIsABudgetToo() throws IOException {
        String chat = Files.readString(Path.of(example("chat.json")));
        String lowered = chat.replace("\"maxItemsRead\": 50\n", "\"maxItemsRead\": 9\n");
        assertThat(lowered).isNotEqualTo(chat);
        Path model = write("chat-items.json", lowered);

        ModelCheckRun run = ModelCheckRun.of(model.toString(), "--format", "json");

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_BUDGET_EXCEEDED);
        assertThat(run.json().get("ok")).isEqualTo(false);
        assertThat((List<Object>) run.json().get("violations"))
                .containsExactly("budget exceeded: chat / roomMessages: items read 10 > maxItemsRead 9");
    }

    @Test
    void runsAgainstASeparatelyStartedServerAndLeavesNoTableBehind() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            ModelCheckRun run = ModelCheckRun.of(
                    example("chat.json"), "--endpoint", server.endpoint().toString(), "--format", "json");

            assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
            assertThat(run.json().get("endpoint")).isEqualTo(server.endpoint().toString());
            assertThat(number(run.pattern("chat", "connectionOwner").get("rcu")))
                    .isEqualTo(0.5);
            assertThat(number(run.pattern("chat", "userRooms").get("itemsRead")))
                    .isEqualTo(10);
            assertThat(server.client()
                            .listTables(ListTablesRequest.builder().build())
                            .tableNames())
                    .isEmpty();
        }
    }

    @Test
    void keepTablesLeavesTheSampleDataUnderTheSuffixedName() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            ModelCheckRun run = ModelCheckRun.of(
                    example("mbc-cqrs.json"),
                    "--endpoint",
                    server.endpoint().toString(),
                    "--keep-tables",
                    "--table-suffix",
                    "-ci");

            assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
            assertThat(server.client()
                            .listTables(ListTablesRequest.builder().build())
                            .tableNames())
                    .containsExactlyInAnyOrder("mbc-data-ci", "mbc-command-ci");
            // The patterns' writes were undone: the sample data is as generated (160 + 30 items).
            assertThat(server.client().scan(b -> b.tableName("mbc-data-ci")).count())
                    .isEqualTo(160);
        }
    }

    @Test
    void flagsScansFiltersThatDiscardMostItemsAndPatternsThatFindNothing() throws IOException {
        Path model = write("flags.json", """
                {
                  "name": "flags",
                  "table": { "name": "t", "partitionKey": { "name": "pk" }, "sortKey": { "name": "sk" } },
                  "entities": [
                    { "name": "Event", "keys": { "pk": "DEVICE#{deviceId}", "sk": "EVENT#{at}" },
                      "attributes": { "deviceId": "id", "at": "timestamp",
                                      "level": { "type": "string", "values": ["info", "info", "info", "error"] } } }
                  ],
                  "accessPatterns": [
                    { "name": "errorsEverywhere", "operation": "Scan", "filter": "#l = :e",
                      "names": { "#l": "level" }, "values": { ":e": "error" }, "perSecond": 1 },
                    { "name": "wrongPrefix", "operation": "Query", "entity": "Event",
                      "keyCondition": "pk = :pk AND begins_with(sk, :p)",
                      "values": { ":pk": "DEVICE#{deviceId}", ":p": "EVENTS#" }, "perSecond": 1 }
                  ]
                }
                """);

        ModelCheckRun run = ModelCheckRun.of(model.toString(), "--format", "json", "--scale", "8");

        // wrongPrefix found nothing: that fails the check (ModelCheckGateTest).
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ModelCheckCommand.EXIT_BUDGET_EXCEEDED);
        Map<String, Object> scan = run.pattern("flags", "errorsEverywhere");
        // 4 partitions x 8 events, one in four an error.
        assertThat(number(scan.get("itemsRead"))).isEqualTo(32);
        assertThat(number(scan.get("itemsReturned"))).isEqualTo(8);
        assertThat((List<Object>) scan.get("flags"))
                .containsExactly(PatternResult.FLAG_SCAN, PatternResult.FLAG_FILTER);
        assertThat((List<Object>) run.pattern("flags", "wrongPrefix").get("flags"))
                .containsExactly(PatternResult.FLAG_EMPTY);
    }

    @Test
    void aModelErrorExitsTwoWithOneLine() throws IOException {
        String chat = Files.readString(Path.of(example("chat.json")));
        Path model = write("typo.json", chat.replace("\"maxRcu\": 2,", "\"maxRCU\": 2,"));

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        assertThat(run.err())
                .isEqualTo("kumiko model check: " + model + ":"
                        + ModelCheckGateTest.place(Files.readString(model), "\"maxRCU\"")
                        + ": access pattern \"roomMessages\": unknown field \"maxRCU\" "
                        + "(did you mean \"maxRcu\"?)\n");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aRequestTheEndpointRejectsExitsTwoNamingThePattern() throws IOException {
        String chat = Files.readString(Path.of(example("chat.json")));
        Path model = write(
                "bad-index.json",
                chat.replace(
                        "\"index\": \"GSI1\",\n      \"keyCondition\"",
                        "\"index\": \"GSI9\",\n      \"keyCondition\""));

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        assertThat(run.err())
                .startsWith("kumiko model check: access pattern \"userRooms\": Query failed: "
                        + "ValidationException (HTTP 400): ");
    }

    @Test
    void theSchemaNamesWhatTheReaderAccepts() throws IOException {
        byte[] bytes = Files.readAllBytes(ModelCheckRun.EXAMPLES.resolve("model.schema.json"));
        Map<String, Object> defs = (Map<String, Object>)
                JsonTree.parseObject(bytes, 0, bytes.length).get("$defs");
        List<Object> types = (List<Object>) ((Map<String, Object>) defs.get("attributeType")).get("enum");
        assertThat(new HashSet<>(types)).isEqualTo(ModelReader.ATTRIBUTE_TYPES);
        Map<String, Object> requestFields =
                (Map<String, Object>) ((Map<String, Object>) defs.get("requestFields")).get("properties");
        Set<Object> operations =
                new HashSet<>((List<Object>) ((Map<String, Object>) requestFields.get("operation")).get("enum"));
        assertThat(operations).containsAll(ModelReader.OPERATIONS);
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
