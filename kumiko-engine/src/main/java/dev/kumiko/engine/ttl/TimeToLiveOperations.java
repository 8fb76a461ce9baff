package dev.kumiko.engine.ttl;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.TimeToLiveSettings;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.error.DynamoException;

/**
 * UpdateTimeToLive and DescribeTimeToLive. A change takes effect at once: DescribeTimeToLive
 * answers ENABLED or DISABLED (never ENABLING / DISABLING), and the sweeper honours it on its next
 * pass. DynamoDB's "one change per hour" rule is not enforced, so that tests can toggle TTL.
 */
public final class TimeToLiveOperations {
    private final Catalog catalog;

    public TimeToLiveOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    public TimeToLiveRequests.Specification updateTimeToLive(TimeToLiveRequests.UpdateTimeToLive r) {
        TimeToLiveRequests.Specification spec = r.timeToLiveSpecification();
        Constraints c = new Constraints();
        if (c.notNull("tableName", r.tableName())) {
            c.length("tableName", r.tableName(), 1, 1024);
        }
        if (c.notNull("timeToLiveSpecification", spec)) {
            if (c.notNull("timeToLiveSpecification.attributeName", spec.attributeName())) {
                c.length("timeToLiveSpecification.attributeName", spec.attributeName(), 1, 255);
            }
            c.notNull("timeToLiveSpecification.enabled", spec.enabled());
        }
        c.throwIfAny();
        synchronized (catalog) {
            Table t = table(r.tableName());
            TableDescriptor changed = catalog.modify(t, d -> {
                check(d.timeToLive(), spec);
                return d.withTimeToLive(
                        spec.enabled()
                                ? new TimeToLiveSettings(true, spec.attributeName())
                                : TimeToLiveSettings.DISABLED);
            });
            if (changed == null) {
                throw DynamoException.resourceNotFound(
                        "Requested resource not found: Table: " + r.tableName() + " not found");
            }
        }
        return spec;
    }

    /** The messages are DynamoDB's, as quoted in client bug reports and tests (docs/notes/error-messages.md). */
    private static void check(TimeToLiveSettings current, TimeToLiveRequests.Specification spec) {
        String active = current.enabledAttribute();
        if (active != null && !active.equals(spec.attributeName())) {
            throw DynamoException.validation(
                    "TimeToLive is active on a different AttributeName: current " + "AttributeName is " + active);
        }
        if (current.enabled() && spec.enabled()) {
            throw DynamoException.validation("TimeToLive is already enabled");
        }
        if (!current.enabled() && !spec.enabled()) {
            throw DynamoException.validation("TimeToLive is already disabled");
        }
    }

    public TimeToLiveRequests.Description describeTimeToLive(String tableName) {
        Constraints c = new Constraints();
        if (c.notNull("tableName", tableName)) {
            c.length("tableName", tableName, 1, 1024);
        }
        c.throwIfAny();
        TimeToLiveSettings ttl = table(tableName).descriptor().timeToLive();
        return ttl.enabled()
                ? new TimeToLiveRequests.Description("ENABLED", ttl.attributeName())
                : new TimeToLiveRequests.Description("DISABLED", null);
    }

    private Table table(String nameOrArn) {
        String name = TableNames.resolve(nameOrArn, "tableName");
        Table t = catalog.get(name);
        if (t == null) {
            // UNVERIFIED wording: DescribeTable's for a missing table.
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        return t;
    }
}
