package dev.kumiko.server.metrics;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.insights.ContributorInsightsRequests;
import dev.kumiko.engine.insights.KeyCount;
import dev.kumiko.model.AttributeValue;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The most accessed and most throttled keys of the tables and GSIs with Contributor Insights on, in
 * Prometheus' text format, appended to each scrape: one sample per rule and key, the requests counted
 * since the rule was made. Written at the scrape from the engine's counters, so a key that drops out
 * of a rule's top leaves no stale series behind (registered meters would).
 */
final class ContributorInsightsMetrics {
    static final String NAME = "kumiko_contributor_insights_requests";
    /** Keys per rule in a scrape: a Contributor Insights graph's default top ten. */
    static final int KEYS_PER_RULE = 10;

    private ContributorInsightsMetrics() {}

    /** The samples of every enabled table and index, or "" when there are none. */
    static String scrape(Engine engine) {
        List<ContributorInsightsRequests.TopKeys> all =
                engine.contributorInsights().topKeys(null, KEYS_PER_RULE);
        if (all.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(256);
        out.append("# HELP ")
                .append(NAME)
                .append(" Requests counted for a key by a Contributor Insights rule")
                .append(" (PKC/SKC most accessed, PKT/SKT most throttled) since the rule was made\n");
        out.append("# TYPE ").append(NAME).append(" gauge\n");
        for (ContributorInsightsRequests.TopKeys t : all) {
            for (Map.Entry<String, List<KeyCount>> rule : t.rules().entrySet()) {
                for (KeyCount k : rule.getValue()) {
                    sample(out, t, rule.getKey(), k);
                }
            }
        }
        return out.toString();
    }

    private static void sample(StringBuilder out, ContributorInsightsRequests.TopKeys t, String rule, KeyCount k) {
        out.append(NAME).append("{table=\"");
        escaped(out, t.tableName());
        out.append("\",index=\"");
        escaped(out, t.indexName() == null ? "" : t.indexName());
        out.append("\",rule=\"").append(rule).append("\",partition_key=\"");
        escaped(out, text(k.partitionKey()));
        out.append('"');
        if (k.sortKey() != null) {
            out.append(",sort_key=\"");
            escaped(out, text(k.sortKey()));
            out.append('"');
        }
        out.append("} ").append(k.count()).append('\n');
    }

    /** A key value as text: a string as it is, a number's digits, a binary in base64. */
    static String text(@Nullable AttributeValue v) {
        if (v instanceof AttributeValue.S s) {
            return s.value();
        }
        if (v instanceof AttributeValue.N n) {
            return n.value().toString();
        }
        if (v instanceof AttributeValue.B b) {
            return Base64.getEncoder().encodeToString(b.value());
        }
        return String.valueOf(v);
    }

    /** Prometheus label values escape backslash, double quote and line feed. */
    private static void escaped(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(ch);
            }
        }
    }
}
