package dev.kumiko.bench;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Request bodies shaped exactly like the load harness's (bench/harness/lua/ddb.lua), so
 * that a micro-benchmark measures the work one harness request causes: partitions "p#%06d" of 100
 * items each (sort keys "o#000".."o#079" and "x#080".."x#099"), items of about 200 bytes.
 */
final class Fixtures {
    static final String TABLE = "bench";
    static final int ITEMS_PER_PARTITION = 100;
    private static final int SORTED_PER_PARTITION = 80;
    static final int BATCH_SIZE = 25;
    /** Bodies are generated up front and cycled through, so generating them is never measured. */
    static final int BODIES = 1024;

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final SplittableRandom random;
    private final int partitions;
    private final String filler;

    Fixtures(long seed, int items) {
        if (items < ITEMS_PER_PARTITION || items % ITEMS_PER_PARTITION != 0) {
            throw new IllegalArgumentException("items must be a positive multiple of 100: " + items);
        }
        this.random = new SplittableRandom(seed);
        this.partitions = items / ITEMS_PER_PARTITION;
        StringBuilder b = new StringBuilder(1100);
        for (int i = 0; i < 1100; i++) {
            b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        this.filler = b.toString();
    }

    int partitions() {
        return partitions;
    }

    static String pk(int partition) {
        return String.format("p#%06d", partition);
    }

    static String sk(int j) {
        return String.format(j < SORTED_PER_PARTITION ? "o#%03d" : "x#%03d", j);
    }

    static String createTableBody() {
        return "{\"TableName\":\"" + TABLE + "\",\"BillingMode\":\"PAY_PER_REQUEST\","
                + "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
                + "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"}],"
                + "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
                + "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}]}";
    }

    String itemJson(int partition, int j) {
        String pk = pk(partition);
        String sk = sk(j);
        int o1 = random.nextInt(901);
        int o2 = random.nextInt(901);
        return String.format(
                "{\"PK\":{\"S\":\"%s\"},\"SK\":{\"S\":\"%s\"},\"GSI1PK\":{\"S\":\"g#%03d\"},"
                        + "\"GSI1SK\":{\"S\":\"%s#%s\"},\"name\":{\"S\":\"%s\"},\"qty\":{\"N\":\"%d\"},"
                        + "\"price\":{\"N\":\"%d.%02d\"},\"payload\":{\"S\":\"%s\"}}",
                pk,
                sk,
                partition % 100,
                sk,
                pk,
                filler.substring(o1, o1 + 32),
                1 + random.nextInt(999),
                1 + random.nextInt(9999),
                random.nextInt(100),
                filler.substring(o2, o2 + 94));
    }

    String randomItemJson() {
        return itemJson(random.nextInt(partitions), random.nextInt(ITEMS_PER_PARTITION));
    }

    private String randomKeyJson() {
        return String.format(
                "{\"PK\":{\"S\":\"%s\"},\"SK\":{\"S\":\"%s\"}}",
                pk(random.nextInt(partitions)), sk(random.nextInt(ITEMS_PER_PARTITION)));
    }

    String putBody() {
        return "{\"TableName\":\"" + TABLE + "\",\"Item\":" + randomItemJson() + "}";
    }

    String getBody() {
        return "{\"TableName\":\"" + TABLE + "\",\"Key\":" + randomKeyJson() + ",\"ConsistentRead\":true}";
    }

    String queryBody() {
        return "{\"TableName\":\"" + TABLE + "\",\"KeyConditionExpression\":\"PK = :p AND begins_with(SK, :s)\","
                + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"" + pk(random.nextInt(partitions))
                + "\"},\":s\":{\"S\":\"o#\"}},\"Limit\":50}";
    }

    String updateBody(long counter) {
        return "{\"TableName\":\"" + TABLE + "\",\"Key\":" + randomKeyJson()
                + ",\"UpdateExpression\":\"ADD cnt :one SET updatedAt = :t\","
                + "\"ConditionExpression\":\"attribute_exists(PK)\","
                + "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":t\":{\"N\":\"" + counter + "\"}},"
                + "\"ReturnValues\":\"UPDATED_NEW\"}";
    }

    /** 25 puts on 25 consecutive partitions, as the harness's batch workload sends them. */
    String batchBody() {
        int base = random.nextInt(partitions);
        StringBuilder b = new StringBuilder(8192)
                .append("{\"RequestItems\":{\"")
                .append(TABLE)
                .append("\":[");
        for (int i = 0; i < BATCH_SIZE; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append("{\"PutRequest\":{\"Item\":")
                    .append(itemJson((base + i) % partitions, random.nextInt(ITEMS_PER_PARTITION)))
                    .append("}}");
        }
        return b.append("]}}").toString();
    }

    /** Items firstItem .. firstItem + 24 (item n is partition n / 100, sort key n % 100), for preloading. */
    String loadBatchBody(int firstItem) {
        StringBuilder b = new StringBuilder(8192)
                .append("{\"RequestItems\":{\"")
                .append(TABLE)
                .append("\":[");
        for (int i = 0; i < BATCH_SIZE; i++) {
            int n = firstItem + i;
            if (i > 0) {
                b.append(',');
            }
            b.append("{\"PutRequest\":{\"Item\":")
                    .append(itemJson(n / ITEMS_PER_PARTITION, n % ITEMS_PER_PARTITION))
                    .append("}}");
        }
        return b.append("]}}").toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** BODIES bodies from the generator, as UTF-8. */
    static byte[][] bodies(java.util.function.Supplier<String> generator) {
        byte[][] out = new byte[BODIES][];
        for (int i = 0; i < BODIES; i++) {
            out[i] = utf8(generator.get());
        }
        return out;
    }
}
