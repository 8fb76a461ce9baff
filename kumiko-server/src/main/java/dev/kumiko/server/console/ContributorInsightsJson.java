package dev.kumiko.server.console;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.insights.ContributorInsightsRequests;
import dev.kumiko.engine.insights.KeyCount;
import dev.kumiko.server.protocol.JsonOut;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * {@code /console/api/contributor-insights}: each table and GSI with Contributor Insights on, its
 * mode, and per rule (PKC, SKC, PKT, SKT) the keys counted most, keys in DynamoDB JSON:
 * {@code {"resources":[{"table":"T","index":null,"mode":"...","rules":{"PKC":[{"partitionKey":{"S":"a"},"count":3}]}}]}}.
 */
final class ContributorInsightsJson {
    private ContributorInsightsJson() {}

    static byte[] of(List<ContributorInsightsRequests.TopKeys> all) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeArrayFieldStart("resources");
            for (ContributorInsightsRequests.TopKeys t : all) {
                resource(g, t);
            }
            g.writeEndArray();
            g.writeEndObject();
            return out.toBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void resource(JsonGenerator g, ContributorInsightsRequests.TopKeys t) throws IOException {
        g.writeStartObject();
        g.writeStringField("table", t.tableName());
        g.writeStringField("index", t.indexName());
        g.writeStringField("mode", t.mode());
        g.writeObjectFieldStart("rules");
        for (Map.Entry<String, List<KeyCount>> rule : t.rules().entrySet()) {
            g.writeArrayFieldStart(rule.getKey());
            for (KeyCount k : rule.getValue()) {
                g.writeStartObject();
                g.writeFieldName("partitionKey");
                JsonOut.value(g, k.partitionKey());
                if (k.sortKey() != null) {
                    g.writeFieldName("sortKey");
                    JsonOut.value(g, k.sortKey());
                }
                g.writeNumberField("count", k.count());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
