package dev.kumiko.bench;

import dev.kumiko.expr.KeyCondition;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.expr.UpdateResult;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.AttributeValues;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Expressions of the harness's update and query workloads: parse plus validation (what every
 * request pays today, as nothing is cached), and evaluation against a ~200-byte item.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ExpressionBench {
    static final String UPDATE = "ADD cnt :one SET updatedAt = :t";
    static final String CONDITION = "attribute_exists(PK)";
    static final String KEY_CONDITION = "PK = :p AND begins_with(SK, :s)";
    private static final List<String> KEYS = List.of("PK", "SK");

    private Map<String, AttributeValue> updateValues;
    private Map<String, AttributeValue> queryValues;
    private Map<String, AttributeValue> item;
    private RequestExpressions update;

    @Setup
    public void setup() {
        updateValues = Map.of(":one", AttributeValue.n(1), ":t", AttributeValue.n(1_700_000_000L));
        queryValues = Map.of(":p", AttributeValue.s(Fixtures.pk(42)), ":s", AttributeValue.s("o#"));
        byte[] json = Fixtures.utf8(new Fixtures(4, 100_000).randomItemJson());
        item = AttributeValues.decodeMap(JsonTree.parseObject(json, 0, json.length), 0);
        update = parseUpdate();
    }

    /** UpdateItem: UpdateExpression + ConditionExpression parsed and checked against the values. */
    @Benchmark
    public RequestExpressions parseUpdate() {
        return RequestExpressions.builder()
                .updateExpression(UPDATE)
                .conditionExpression(CONDITION)
                .expressionAttributeValues(updateValues)
                .keyAttributeNames(KEYS)
                .build();
    }

    /** Query: KeyConditionExpression parsed, checked, and split into partition key and sort range. */
    @Benchmark
    public KeyCondition parseKeyCondition() {
        return RequestExpressions.builder()
                .keyConditionExpression(KEY_CONDITION)
                .expressionAttributeValues(queryValues)
                .build()
                .keyCondition(java.util.List.of("PK"), java.util.List.of("SK"));
    }

    @Benchmark
    public boolean evaluateCondition() {
        return update.testCondition(item);
    }

    @Benchmark
    public UpdateResult applyUpdate() {
        return update.applyUpdate(item);
    }
}
