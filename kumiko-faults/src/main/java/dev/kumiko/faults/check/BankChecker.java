package dev.kumiko.faults.check;

import dev.kumiko.faults.history.Operation;
import java.util.List;
import java.util.Map;

/**
 * Judges a bank workload's history: every strongly consistent read of all accounts (one
 * TransactGetItems) sees every account, none negative, and the total the accounts started with.
 *
 * <p>History values: the first operation is {@code init} whose argument is {@code {"balances":
 * {account: amount, ...}}}; a {@code transfer}'s argument is {@code {"from", "to", "amount"}}; a
 * {@code read}'s result maps each account to its balance (null: the item is missing). Transfers are
 * not judged one by one: whatever they did, the invariant must hold in every read.
 */
public final class BankChecker {
    public Verdict check(List<Operation> operations) {
        Map<?, ?> initial = initialBalances(operations);
        long total = 0;
        for (Object amount : initial.values()) {
            total += (Long) amount;
        }
        Anomalies anomalies = new Anomalies();
        long reads = 0;
        for (Operation op : operations) {
            if (op.f().equals("read") && op.ok()) {
                reads++;
                checkRead(op, initial, total, anomalies);
            }
        }
        if (reads == 0) {
            anomalies.add("no read succeeded: nothing was checked");
        }
        return anomalies.verdict(operations.size());
    }

    private static Map<?, ?> initialBalances(List<Operation> operations) {
        if (operations.isEmpty()
                || !operations.get(0).f().equals("init")
                || !operations.get(0).ok()) {
            throw new IllegalArgumentException("a bank history starts with an acknowledged init");
        }
        if (!(operations.get(0).argument() instanceof Map<?, ?> init)
                || !(init.get("balances") instanceof Map<?, ?> balances)
                || balances.isEmpty()) {
            throw new IllegalArgumentException("init's argument is {\"balances\": {account: amount}}");
        }
        return balances;
    }

    private static void checkRead(Operation read, Map<?, ?> initial, long total, Anomalies anomalies) {
        if (!(read.result() instanceof Map<?, ?> balances)) {
            anomalies.add("read at " + read.invokeIndex() + " returned no balances");
            return;
        }
        long sum = 0;
        for (Object account : initial.keySet()) {
            Object balance = balances.get(account);
            if (!(balance instanceof Long amount)) {
                anomalies.add("read at " + read.invokeIndex() + ": account " + account + " missing");
                return;
            }
            if (amount < 0) {
                anomalies.add("read at " + read.invokeIndex() + ": account " + account + " negative: " + amount);
            }
            sum += amount;
        }
        if (sum != total) {
            anomalies.add("read at " + read.invokeIndex() + ": total " + sum + ", expected " + total + " " + balances);
        }
    }
}
