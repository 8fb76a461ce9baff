package dev.kumiko.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.cli.ConsoleModelFile;
import dev.kumiko.server.json.JsonTree;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --console-model} reads the model file {@code kumiko model check} reads (issue #63: one model file):
 * the console gets each entity's key templates and an expression per key, and the items of the seed's
 * chat table are named by the first that matches, as the console's entities.js does. The older prefix
 * file is still served as it is.
 */
@SuppressWarnings("unchecked")
class ConsoleModelFileTest {
    static final Path CHAT =
            Path.of("..", "examples", "models", "chat.json").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theModelCheckFileNamesTheChatTablesItemsByTheirKeyTemplates() throws Exception {
        byte[] served = ConsoleModelFile.load(CHAT);
        try (ConsoleServer server = new ConsoleServer(ConsolePaths.Access.ON, served, null)) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(server.endpoint() + "/console/api/model"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
            Map<String, Object> model = JsonTree.parseObject(body, 0, body.length);
            assertThat(model.get("model")).isEqualTo("chat");
            List<Object> entities = (List<Object>) model.get("entities");
            assertThat(entities).hasSize(6);
            // Keys as ChatSeed (seed 000) writes them.
            assertThat(nameOf(entities, "Connect40-Table", "CONNECTION#c-1", "METADATA"))
                    .isEqualTo("Connection");
            assertThat(nameOf(entities, "Connect40-Table", "USER#alice", "CONNECTION#c-1"))
                    .isEqualTo("UserConnection");
            assertThat(nameOf(entities, "Connect40-Table", "USER#alice", "CHATROOM#r-1"))
                    .isEqualTo("ChatParticipation");
            assertThat(nameOf(entities, "Connect40-Table", "CHATROOM#r-1", "METADATA"))
                    .isEqualTo("ChatRoom");
            assertThat(nameOf(entities, "Connect40-Table", "CHATROOM#r-1", "MESSAGE#2026-03-01T09:00:00Z#m-07"))
                    .isEqualTo("Message");
            assertThat(nameOf(entities, "Connect40-Table", "CHATROOM#r-1", "LASTMESSAGE"))
                    .isEqualTo("LastMessage");
            assertThat(nameOf(entities, "Connect40-Table", "CHATROOM#r-1", "METADATA2"))
                    .isNull();
            assertThat(nameOf(entities, "Connect40-Table", "ROOM#r-1", "METADATA"))
                    .isNull();
            Map<String, Object> message = entity(entities, "Message");
            assertThat(message.get("keys"))
                    .isEqualTo(Map.of("PK", "CHATROOM#{chatRoomId}", "SK", "MESSAGE#{timestamp}#{messageId}"));
        }
    }

    @Test
    void theMostLiteralTemplateWinsOverACatchAll() throws Exception {
        Path file = write("catch-all.json", """
                { "name": "m", "table": { "name": "t", "partitionKey": { "name": "pk" } },
                  "entities": [
                    { "name": "Anything", "keys": { "pk": "{id}" }, "attributes": { "id": "id" } },
                    { "name": "User", "keys": { "pk": "USER#{userId}" }, "attributes": { "userId": "id" } } ],
                  "accessPatterns": [] }
                """);
        List<Object> entities = entities(ConsoleModelFile.load(file));
        assertThat(nameOf(entities, "t", "USER#1", null)).isEqualTo("User");
        assertThat(nameOf(entities, "t", "ORDER#1", null)).isEqualTo("Anything");
    }

    @Test
    void literalTextWithRegexCharactersMatchesOnlyItself() throws Exception {
        Path file = write("dots.json", """
                { "name": "m", "table": { "name": "t", "partitionKey": { "name": "pk" } },
                  "entities": [ { "name": "Host", "keys": { "pk": "host.a+b(1)|{n}" } } ],
                  "accessPatterns": [] }
                """);
        List<Object> entities = entities(ConsoleModelFile.load(file));
        assertThat(nameOf(entities, "t", "host.a+b(1)|7", null)).isEqualTo("Host");
        assertThat(nameOf(entities, "t", "hostXaab(1)|7", null)).isNull();
        assertThat(nameOf(entities, "t", "host.a+b(1)|", null))
                .as("a parameter is not empty")
                .isNull();
    }

    @Test
    void anAlternativeOnTheSameTableIsNotListedButOneOnItsOwnTableIs() throws Exception {
        Path models = CHAT.getParent();
        List<Object> mbc = entities(ConsoleModelFile.load(models.resolve("mbc-cqrs.json")));
        assertThat(mbc).extracting(e -> ((Map<String, Object>) e).get("table")).contains("mbc-data", "mbc-command");
        List<Object> sql = entities(ConsoleModelFile.load(models.resolve("sql-to-nosql.json")));
        assertThat(sql).extracting(e -> ((Map<String, Object>) e).get("table")).containsOnly("SocialPlatform");
    }

    @Test
    void theOlderPrefixFileIsStillServedAsWritten() throws Exception {
        String text = "{\"entities\": [{\"name\": \"Room\", \"pk\": \"CHATROOM#\", \"sk\": \"METADATA\"}]}";
        Path file = write("prefixes.json", text);
        assertThat(new String(ConsoleModelFile.load(file), StandardCharsets.UTF_8))
                .isEqualTo(text);
    }

    @Test
    void aBrokenModelFileIsRefusedWithItsLineAndColumn() throws Exception {
        String chat = Files.readString(CHAT);
        Path file = write("chat-typo.json", chat.replace("\"maxRcu\": 2,", "\"maxRCU\": 2,"));
        assertThatThrownBy(() -> ConsoleModelFile.load(file))
                .isInstanceOf(ConsoleModelFile.Invalid.class)
                .hasMessageMatching(Pattern.quote("--console-model: " + file + ":") + "\\d+:\\d+: "
                        + Pattern.quote("access pattern \"roomMessages\": unknown field \"maxRCU\" (did you mean "
                                + "\"maxRcu\"?)"));
        Path neither = write("neither.json", "{\"tables\": []}");
        assertThatThrownBy(() -> ConsoleModelFile.load(neither))
                .hasMessage("--console-model " + neither + ": not a "
                        + "model file: it needs a \"table\" and \"entities\" with key templates, as `kumiko model check` "
                        + "reads (docs/modeling.md)");
    }

    /** The console's rule (entities.js): the first entity of the item's table whose expressions match. */
    static String nameOf(List<Object> entities, String table, String pk, String sk) {
        for (Object o : entities) {
            Map<String, Object> e = (Map<String, Object>) o;
            Map<String, Object> match = (Map<String, Object>) e.get("match");
            String pkName = match.keySet().iterator().next();
            boolean pkMatches =
                    Pattern.compile((String) match.get(pkName)).matcher(pk).find();
            String skPattern =
                    match.size() == 2 ? (String) List.copyOf(match.values()).get(1) : null;
            boolean skMatches = sk == null
                    ? skPattern == null
                    : skPattern != null
                            && Pattern.compile(skPattern).matcher(sk).find();
            if (table.equals(e.get("table")) && pkMatches && skMatches) {
                return (String) e.get("name");
            }
        }
        return null;
    }

    private static Map<String, Object> entity(List<Object> entities, String name) {
        for (Object o : entities) {
            if (name.equals(((Map<String, Object>) o).get("name"))) {
                return (Map<String, Object>) o;
            }
        }
        throw new AssertionError("no entity " + name);
    }

    private static List<Object> entities(byte[] served) {
        return (List<Object>) JsonTree.parseObject(served, 0, served.length).get("entities");
    }

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
