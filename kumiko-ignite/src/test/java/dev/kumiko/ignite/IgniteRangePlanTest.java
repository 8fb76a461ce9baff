package dev.kumiko.ignite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every range read plans a scan of its sorted index, never of the whole table: a full scan costs
 * every row of the store and meets every other transaction's leftover write intents, which Ignite
 * 3.1 failed to resolve for minutes on a 3-node cluster (IgniteSchema#forceIndex). The plans are
 * taken over emptied tables, where the planner's statistics favour a full scan most.
 */
@Tag("slow")
class IgniteRangePlanTest {
    @Test
    void everyRangeQueryScansItsIndex() {
        TestCluster.emptyStore().close();
        List<String> queries = new ArrayList<>();
        for (boolean inGroup : new boolean[] {false, true}) {
            for (boolean bounded : new boolean[] {false, true}) {
                for (boolean reverse : new boolean[] {false, true}) {
                    queries.add(RangeCursor.query(inGroup, bounded, reverse));
                }
            }
        }
        queries.add(IgniteStore.deleteStepQuery(IgniteSchema.DATA, IgniteSchema.DATA_BY_KEY));
        queries.add(IgniteStore.deleteStepQuery(IgniteSchema.LOCKS, IgniteSchema.LOCKS_BY_KEY));
        try (IgniteClient client = IgniteClient.builder()
                .addresses(TestCluster.endpoints().split(","))
                .build()) {
            for (String query : queries) {
                String plan = plan(client, query);
                assertThat(plan).as(query).contains("IndexScan").doesNotContain("TableScan");
            }
        }
    }

    private static String plan(IgniteClient client, String query) {
        long parameters = query.chars().filter(c -> c == '?').count();
        Object[] args = new Object[(int) parameters];
        for (int i = 0; i < args.length; i++) {
            args[i] = new byte[] {(byte) i};
        }
        StringBuilder out = new StringBuilder();
        try (ResultSet<SqlRow> rows = client.sql().execute(null, "EXPLAIN PLAN FOR " + query, args)) {
            rows.forEachRemaining(r -> out.append(r.stringValue(0)));
        }
        return out.toString();
    }
}
