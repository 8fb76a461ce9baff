package dev.kumiko.bench;

import dev.kumiko.embedded.Kumiko;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The embedding API in a warm JVM, as a test suite sees it after its first test class: how long
 * {@code Kumiko.inMemory()} takes to its first answered request (over a new connection, as a new
 * client makes one), and how long {@code reset()} takes over a few small tables. Each invocation
 * is a whole start or a whole reset, set up and torn down outside the measured time.
 *
 * <pre>java -jar bench/target/benchmarks.jar EmbeddedBench</pre>
 */
// Sampled, so that the report has a median: on a shared machine the mean follows the neighbours.
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EmbeddedBench {
    private static final String LIST_TABLES_AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/"
            + "dynamodb/aws4_request, SignedHeaders=host, Signature=0";

    /** A server per invocation of {@link #inMemoryToFirstAnswer}, closed after it (not measured). */
    @State(Scope.Thread)
    public static class Started {
        /** One HTTP client for the run, as a test JVM has one; each new server still means a new connection. */
        final HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        Kumiko kumiko;

        @TearDown(Level.Invocation)
        public void close() {
            if (kumiko != null) {
                kumiko.close();
                kumiko = null;
            }
        }
    }

    /** Start, then one ListTables over a fresh HTTP/1.1 connection from the JDK's client. */
    @Benchmark
    public int inMemoryToFirstAnswer(Started s) throws Exception {
        s.kumiko = Kumiko.inMemory();
        HttpResponse<String> r = s.http.send(
                HttpRequest.newBuilder(URI.create(s.kumiko.endpoint() + "/"))
                        .header("Content-Type", "application/x-amz-json-1.0")
                        .header("X-Amz-Target", "DynamoDB_20120810.ListTables")
                        .header("Authorization", LIST_TABLES_AUTHORIZATION)
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(r.body());
        }
        return r.body().length();
    }

    /** Start, then the SDK's DynamoDbClient from kumiko.dynamoDbClient() (built here) lists the tables. */
    @Benchmark
    public int inMemoryToFirstSdkAnswer(Started s) {
        s.kumiko = Kumiko.inMemory();
        return s.kumiko.dynamoDbClient().listTables().tableNames().size();
    }

    /** One server; before each reset, three tables of ten items each are made (not measured). */
    @State(Scope.Thread)
    public static class Filled {
        static final int TABLES = 3;
        static final int ITEMS_PER_TABLE = 10;
        Kumiko kumiko;
        DynamoDbClient ddb;

        @Setup(Level.Trial)
        public void start() {
            kumiko = Kumiko.inMemory();
            ddb = kumiko.dynamoDbClient();
        }

        @Setup(Level.Invocation)
        public void fill() {
            for (int t = 0; t < TABLES; t++) {
                String name = "table" + t;
                ddb.createTable(b -> b.tableName(name)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build()));
                for (int i = 0; i < ITEMS_PER_TABLE; i++) {
                    String pk = "item" + i;
                    ddb.putItem(b -> b.tableName(name)
                            .item(Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromS("some value"))));
                }
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            kumiko.close();
        }
    }

    @Benchmark
    public void reset(Filled f) {
        f.kumiko.reset();
    }
}
