package dev.kumiko.tools.model;

import static dev.kumiko.tools.model.ModelCheckRun.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code model check} as a CI gate (issue #63): a pattern that finds nothing fails the job, an undefined
 * template parameter is refused while the file is read, errors say file, line and column, name the
 * pattern and suggest the field meant, and {@code --format junit} gives CI a test report.
 */
class ModelCheckGateTest {
    @TempDir
    Path dir;

    private static final String DEVICE_MODEL = """
            {
              "name": "devices",
              "table": { "name": "t", "partitionKey": { "name": "pk" }, "sortKey": { "name": "sk" } },
              "entities": [
                { "name": "Event", "keys": { "pk": "DEVICE#{deviceId}", "sk": "EVENT#{at}" },
                  "attributes": { "deviceId": "id", "at": "timestamp" } }
              ],
              "accessPatterns": [
                { "name": "deviceEvents", "operation": "Query", "entity": "Event",
                  "keyCondition": "pk = :pk AND begins_with(sk, :p)",
                  "values": { ":pk": "DEVICE#{deviceId}", ":p": "EVENTS#" }, "perSecond": 1 }
              ]
            }
            """;

    @Test
    void aPatternThatFindsNothingExitsOneNamingIt() throws IOException {
        Path model = write("devices.json", DEVICE_MODEL);

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ModelCheckCommand.EXIT_BUDGET_EXCEEDED);
        assertThat(run.err())
                .isEqualTo("kumiko model check: found nothing: devices / deviceEvents: its keys miss "
                        + "the sample data (if finding nothing is right, give it \"mayFindNothing\": true)\n");
        assertThat(run.out()).contains("Patterns that found nothing").containsPattern("(?m)^deviceEvents .*FAILED$");
    }

    @Test
    void mayFindNothingLetsAnEmptyReadPass() throws IOException {
        Path model = write(
                "unique.json",
                DEVICE_MODEL.replace("\"perSecond\": 1 }", "\"perSecond\": 1, \"mayFindNothing\": true }"));

        ModelCheckRun run = ModelCheckRun.of(model.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ModelCheckCommand.EXIT_OK);
        assertThat(run.json().get("ok")).isEqualTo(true);
    }

    @Test
    void aMisspeltParameterInAnEntityKeyIsRefusedWithTheNameMeant() throws IOException {
        // {orderID} would get ids of its own, so the Order items match no OrderLine's orderId: before,
        // this passed the reader and failed a later pattern's condition far from the typo.
        String text = """
                {
                  "name": "orders",
                  "table": { "name": "t", "partitionKey": { "name": "PK" }, "sortKey": { "name": "SK" } },
                  "entities": [
                    { "name": "Order",
                      "keys": { "PK": "ORDER#{orderID}", "SK": "METADATA" },
                      "attributes": { "orderId": "id", "total": "number" } },
                    { "name": "OrderLine", "keys": { "PK": "ORDER#{orderId}", "SK": "LINE#{lineId}" },
                      "attributes": { "orderId": "id", "lineId": "id" } }
                  ],
                  "accessPatterns": [
                    { "name": "addLine", "operation": "TransactWriteItems", "actions": [
                      { "operation": "PutItem", "entity": "OrderLine" },
                      { "operation": "ConditionCheck", "entity": "OrderLine",
                        "key": { "PK": "ORDER#{orderId}", "SK": "METADATA" }, "condition": "attribute_exists(PK)" } ],
                      "perSecond": 1 }
                  ]
                }
                """;
        Path model = write("orders.json", text);

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        String keys = place(text, "\"keys\": { \"PK\": \"ORDER#{orderID}");
        assertThat(run.err())
                .isEqualTo("kumiko model check: " + model + ":" + keys
                        + ": entity Order: key PK uses {orderID}, which no attribute or other entity defines (did you mean "
                        + "{orderId}?); an undeclared parameter gets ids that match no other item\n");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aMisspeltParameterInAPatternIsRefusedBeforeAnyRequest() throws IOException {
        String text = DEVICE_MODEL.replace(
                "\"values\": { \":pk\": \"DEVICE#{deviceId}\"", "\"values\": { \":pk\": \"DEVICE#{deviceID}\"");
        Path model = write("pattern-typo.json", text);

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        String pattern = place(text, "{ \"name\": \"deviceEvents\"");
        assertThat(run.err())
                .isEqualTo("kumiko model check: " + model + ":" + pattern
                        + ": access pattern \"deviceEvents\": {deviceID} in \"DEVICE#{deviceID}\" is not a parameter of entity "
                        + "Event (did you mean \"deviceId\"?)\n");
    }

    @Test
    void malformedJsonSaysTheLineAndColumn() throws IOException {
        String text = DEVICE_MODEL.replace("\"name\": \"t\",", "\"name\": \"t\"");
        Path model = write("broken.json", text);

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        // The parser stops at the token after the missing comma: "partitionKey" on line 4.
        assertThat(run.err())
                .startsWith("kumiko model check: " + model + ":" + place(text, "\"partitionKey\"")
                        + ": not valid JSON: Unexpected character ('\"'")
                .doesNotContain("Malformed request body")
                .endsWith("\n")
                .hasLineCount(1);
    }

    @Test
    void anUnknownFieldOfAStepNamesThePatternAndTheFieldMeant() throws IOException {
        String chat = Files.readString(Path.of(example("chat.json")));
        String text = chat.replace("\"repeat\": 5", "\"repaet\": 5");
        assertThat(text).isNotEqualTo(chat);
        Path model = write("step.json", text);

        ModelCheckRun run = ModelCheckRun.of(model.toString());

        assertThat(run.err())
                .isEqualTo(
                        "kumiko model check: " + model + ":" + place(text, "\"repaet\"")
                                + ": access pattern \"roomListScreen\" step: unknown field \"repaet\" (did you mean \"repeat\"?)\n");
    }

    @Test
    void junitReportHasATestCasePerPatternAndAFailurePerBrokenBudget() throws Exception {
        String chat = Files.readString(Path.of(example("chat.json")));
        Path model = write("chat-lowered.json", chat.replace("\"maxRcu\": 2,", "\"maxRcu\": 0.5,"));

        ModelCheckRun run = ModelCheckRun.of(model.toString(), "--format", "junit");

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_BUDGET_EXCEEDED);
        Document doc = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(run.out().getBytes(StandardCharsets.UTF_8)));
        Element suites = doc.getDocumentElement();
        assertThat(suites.getTagName()).isEqualTo("testsuites");
        assertThat(suites.getAttribute("tests")).isEqualTo("9");
        assertThat(suites.getAttribute("failures")).isEqualTo("1");
        NodeList cases = doc.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(9);
        NodeList failures = doc.getElementsByTagName("failure");
        assertThat(failures.getLength()).isEqualTo(1);
        Element failure = (Element) failures.item(0);
        assertThat(((Element) failure.getParentNode()).getAttribute("name")).isEqualTo("roomMessages");
        assertThat(failure.getAttribute("type")).isEqualTo("budget");
        assertThat(failure.getAttribute("message")).isEqualTo("budget exceeded: RCU 1 > maxRcu 0.5");
    }

    @Test
    void junitReportOfAPassingModelHasNoFailure() throws Exception {
        ModelCheckRun run = ModelCheckRun.of(example("mbc-cqrs.json"), "--format", "junit");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ModelCheckCommand.EXIT_OK);
        Document doc = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(run.out().getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getAttribute("failures")).isEqualTo("0");
        assertThat(doc.getElementsByTagName("testsuite").getLength()).isEqualTo(2);
        assertThat(doc.getElementsByTagName("failure").getLength()).isZero();
    }

    @Test
    void aMissingFileSaysWhereItWasLookedFor() {
        Path missing = dir.resolve("nope.json");
        ModelCheckRun run = ModelCheckRun.of(missing.toString());
        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        assertThat(run.err())
                .isEqualTo("kumiko model check: no model file at " + missing + " (examples/models/ has examples)\n");
    }

    @Test
    void junitReportOfAModelThatCannotBeCheckedHasTheErrorAsATestCase() throws Exception {
        Path model = write("broken.json", DEVICE_MODEL.replace("\"name\": \"t\",", "\"name\": \"t\""));

        ModelCheckRun run = ModelCheckRun.of(model.toString(), "--format", "junit");

        assertThat(run.exitCode()).isEqualTo(ModelCheckCommand.EXIT_CANNOT_CHECK);
        Document doc = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(run.out().getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getAttribute("errors")).isEqualTo("1");
        Element error = (Element) doc.getElementsByTagName("error").item(0);
        assertThat("kumiko model check: " + error.getAttribute("message") + "\n")
                .isEqualTo(run.err());
    }

    /** "line:column" (1-based) where {@code needle} starts in {@code text}, as an editor counts. */
    static String place(String text, String needle) {
        int at = text.indexOf(needle);
        assertThat(at).as(needle).isGreaterThanOrEqualTo(0);
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return line + ":" + (at - lineStart + 1);
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
