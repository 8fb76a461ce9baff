package dev.kumiko.server.protocol;

import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The API model's member constraints of the two transaction operations. DynamoDB checks them
 * before reading the request any further and reports every violation in one message; captured
 * combined messages list clientRequestToken, then returnConsumedCapacity, then
 * returnItemCollectionMetrics — alphabetical order, which is used for the nested members too
 * (their relative order is UNVERIFIED). The decoder checks them on the members as the wire sent
 * them: the enum members are the strings, one per action.
 */
final class TransactConstraints {
    /** DynamoDB's limit on actions per transaction (raised from 25 to 100 in 2022). */
    static final int ACTIONS_MAX = 100;

    static final int CLIENT_REQUEST_TOKEN_LENGTH_MAX = 36;
    /** TableName in a transaction is a name or an ARN: the TableArn type's length. */
    static final int TABLE_NAME_LENGTH_MAX = 1024;

    private TransactConstraints() {}

    /** {@code onConditionFailure}: each action's ReturnValuesOnConditionCheckFailure, as sent. */
    static void write(
            @Nullable List<TransactRequests.WriteAction> items,
            List<@Nullable String> onConditionFailure,
            @Nullable String clientRequestToken,
            @Nullable String returnConsumedCapacity,
            @Nullable String returnItemCollectionMetrics) {
        Constraints c = new Constraints();
        c.length("clientRequestToken", clientRequestToken, 1, CLIENT_REQUEST_TOKEN_LENGTH_MAX);
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        WireEnums.check(
                c, "returnItemCollectionMetrics", returnItemCollectionMetrics, ReturnItemCollectionMetrics.class);
        if (actions(c, items) && items != null) {
            for (int i = 0; i < items.size(); i++) {
                writeAction(c, "transactItems." + (i + 1) + ".member", items.get(i), onConditionFailure.get(i));
            }
        }
        c.throwIfAny();
    }

    static void get(@Nullable List<TransactRequests.GetAction> items, @Nullable String returnConsumedCapacity) {
        Constraints c = new Constraints();
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        if (actions(c, items) && items != null) {
            for (int i = 0; i < items.size(); i++) {
                getAction(c, "transactItems." + (i + 1) + ".member", items.get(i));
            }
        }
        c.throwIfAny();
    }

    /** TransactItems present with 1..100 entries; true when its entries are worth checking. */
    private static boolean actions(Constraints c, @Nullable List<?> items) {
        // items == null: notNull's answer again, for the nullness checker.
        if (!c.notNull("transactItems", items) || items == null) {
            return false;
        }
        // DynamoDB echoes the whole list (Java toString of the model objects); only "[]" is reproducible.
        c.size("transactItems", items, items.isEmpty() ? "[]" : "[...]", 1, ACTIONS_MAX);
        return items.size() <= ACTIONS_MAX;
    }

    private static void writeAction(
            Constraints c, String base, TransactRequests.WriteAction a, @Nullable String onConditionFailure) {
        if (a.kindsGiven() != 1) {
            return; // refused as a whole afterwards: "TransactItems can only contain one of ..."
        }
        TransactRequests.Kind kind = Objects.requireNonNull(a.kind(), "one kind given");
        String path = base + "." + kind.member() + ".";
        if (kind == TransactRequests.Kind.CONDITION_CHECK) {
            c.notNull(path + "conditionExpression", a.conditionExpression());
        }
        if (kind == TransactRequests.Kind.PUT) {
            c.notNull(path + "item", a.item());
        } else {
            c.notNull(path + "key", a.key());
        }
        WireEnums.check(
                c,
                path + "returnValuesOnConditionCheckFailure",
                onConditionFailure,
                ReturnValuesOnConditionCheckFailure.class);
        tableName(c, path + "tableName", a.tableName());
        if (kind == TransactRequests.Kind.UPDATE) {
            c.notNull(path + "updateExpression", a.updateExpression());
        }
    }

    private static void getAction(Constraints c, String base, TransactRequests.GetAction a) {
        if (!c.notNull(base + ".get", a.given() ? a : null)) {
            return;
        }
        c.notNull(base + ".get.key", a.key());
        tableName(c, base + ".get.tableName", a.tableName());
    }

    private static void tableName(Constraints c, String path, @Nullable String name) {
        if (c.notNull(path, name)) {
            c.length(path, name, 1, TABLE_NAME_LENGTH_MAX);
        }
    }
}
