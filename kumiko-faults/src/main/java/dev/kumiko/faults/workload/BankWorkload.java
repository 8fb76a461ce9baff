package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Bank: TransactWriteItems transfers between accounts (the debit conditional on the balance
 * covering it), and TransactGetItems reads of every account. Judged by
 * {@link dev.kumiko.faults.check.BankChecker}: every read sees the starting total, no account
 * negative.
 */
public final class BankWorkload implements Workload {
    public static final String TABLE = "faults_bank";
    private static final String BALANCE = "b";
    private static final String HISTORY_KEY = "bank";
    private static final long AMOUNT_MAX = 5;

    private final List<String> accounts = new ArrayList<>();
    private final long startingBalance;

    public BankWorkload(int accountCount, long startingBalance) {
        if (accountCount < 2 || accountCount > 100 || startingBalance < 0) {
            throw new IllegalArgumentException("2-100 accounts (TransactGetItems' limit), balances >= 0");
        }
        for (int i = 0; i < accountCount; i++) {
            accounts.add("a" + i);
        }
        this.startingBalance = startingBalance;
    }

    @Override
    public void setUp(DynamoDbClient client, Recorder recorder) throws InterruptedException {
        Calls.ensureTable(client, TABLE);
        Map<String, Object> balances = new LinkedHashMap<>();
        for (String account : accounts) {
            balances.put(account, startingBalance);
        }
        // One process writes the accounts before any transfer starts; it must succeed.
        recorder.record(0, EventType.INVOKE, "init", HISTORY_KEY, Map.of("balances", balances));
        for (String account : accounts) {
            client.putItem(b -> b.tableName(TABLE)
                    .item(Map.of(
                            Calls.KEY,
                            AttributeValue.fromS(account),
                            BALANCE,
                            AttributeValue.fromN(Long.toString(startingBalance)))));
        }
        recorder.record(0, EventType.OK, "init", HISTORY_KEY, null);
    }

    @Override
    public EventType step(int process, DynamoDbClient client, Random random, Recorder recorder) {
        if (random.nextInt(10) < 3) {
            return Calls.record(recorder, process, "read", HISTORY_KEY, null, () -> read(client));
        }
        String from = accounts.get(random.nextInt(accounts.size()));
        String to = accounts.get(random.nextInt(accounts.size() - 1));
        if (to.equals(from)) {
            to = accounts.get(accounts.size() - 1);
        }
        long amount = 1L + random.nextInt((int) AMOUNT_MAX);
        String target = to;
        return Calls.record(
                recorder,
                process,
                "transfer",
                HISTORY_KEY,
                Map.of("from", from, "to", to, "amount", amount),
                () -> transfer(client, from, target, amount));
    }

    @Override
    public void finish(int process, DynamoDbClient client, Recorder recorder, long deadlineNanos)
            throws InterruptedException {
        Calls.recordUntilKnown(recorder, process, "read", HISTORY_KEY, null, () -> read(client), deadlineNanos);
    }

    private static Map<String, AttributeValue> key(String account) {
        return Map.of(Calls.KEY, AttributeValue.fromS(account));
    }

    private Map<String, @Nullable Object> read(DynamoDbClient client) {
        List<TransactGetItem> gets = new ArrayList<>();
        for (String account : accounts) {
            gets.add(TransactGetItem.builder()
                    .get(g -> g.tableName(TABLE).key(key(account)))
                    .build());
        }
        List<ItemResponse> responses =
                client.transactGetItems(b -> b.transactItems(gets)).responses();
        Map<String, @Nullable Object> balances = new LinkedHashMap<>();
        for (int i = 0; i < accounts.size(); i++) {
            ItemResponse r = responses.get(i);
            AttributeValue balance = r.hasItem() ? r.item().get(BALANCE) : null;
            balances.put(accounts.get(i), balance != null ? Long.parseLong(balance.n()) : null);
        }
        return balances;
    }

    private static @Nullable Object transfer(DynamoDbClient client, String from, String to, long amount) {
        Map<String, AttributeValue> values = Map.of(":a", AttributeValue.fromN(Long.toString(amount)));
        Map<String, String> names = Map.of("#b", BALANCE);
        TransactWriteItem debit = TransactWriteItem.builder()
                .update(u -> u.tableName(TABLE)
                        .key(key(from))
                        .updateExpression("SET #b = #b - :a")
                        .conditionExpression("#b >= :a")
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values))
                .build();
        TransactWriteItem credit = TransactWriteItem.builder()
                .update(u -> u.tableName(TABLE)
                        .key(key(to))
                        .updateExpression("SET #b = #b + :a")
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values))
                .build();
        client.transactWriteItems(b -> b.transactItems(debit, credit));
        return null;
    }
}
