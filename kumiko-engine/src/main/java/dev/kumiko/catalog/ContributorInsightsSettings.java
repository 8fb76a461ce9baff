package dev.kumiko.catalog;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A table's CloudWatch Contributor Insights settings: one {@link Resource} for the table itself and
 * for each global secondary index that UpdateContributorInsights ever named. Immutable; a change
 * produces a new instance. {@link #enabledAny} is computed once, so that the request path asks one
 * field whether anything is to be counted.
 */
public final class ContributorInsightsSettings {
    /** The key of the table's own resource in {@link #resources}; an index is keyed by its name. */
    public static final String TABLE = "";

    public static final ContributorInsightsSettings NONE = new ContributorInsightsSettings(Map.of());

    /** DynamoDB's ContributorInsightsMode; the first is what ENABLE uses when the request names none. */
    public enum Mode {
        ACCESSED_AND_THROTTLED_KEYS,
        THROTTLED_KEYS
    }

    /**
     * One table's or index's setting. {@code ownerId} is the table's or the index's id, so that an
     * index dropped and created again under the same name does not inherit the old one's setting;
     * {@code rulesCreatedMillis} is when it was last enabled (the rule names carry it).
     */
    public record Resource(int ownerId, boolean enabled, Mode mode, long lastUpdateMillis, long rulesCreatedMillis) {}

    private final Map<String, Resource> resources;
    private final boolean enabledAny;

    public ContributorInsightsSettings(Map<String, Resource> resources) {
        this.resources = Map.copyOf(resources);
        boolean any = false;
        for (Resource r : this.resources.values()) {
            any |= r.enabled();
        }
        this.enabledAny = any;
    }

    /** Whether the table or any of its indexes counts keys: the one check on the request path. */
    public boolean enabledAny() {
        return enabledAny;
    }

    public Map<String, Resource> resources() {
        return resources;
    }

    /** The setting of the table ({@link #TABLE}) or index {@code name} whose id is {@code ownerId}; null: never set. */
    public @Nullable Resource of(String name, int ownerId) {
        Resource r = resources.get(name);
        return r != null && r.ownerId() == ownerId ? r : null;
    }

    /** These settings with {@code name}'s replaced. */
    public ContributorInsightsSettings with(String name, Resource r) {
        Map<String, Resource> next = new LinkedHashMap<>(resources);
        next.put(name, r);
        return new ContributorInsightsSettings(next);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof ContributorInsightsSettings s && s.resources.equals(resources);
    }

    @Override
    public int hashCode() {
        return resources.hashCode();
    }

    @Override
    public String toString() {
        return "ContributorInsightsSettings" + resources;
    }
}
