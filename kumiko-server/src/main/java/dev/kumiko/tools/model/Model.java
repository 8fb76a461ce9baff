package dev.kumiko.tools.model;

import java.util.List;
import java.util.Map;

/**
 * A single-table model as read from a model file (docs/modeling.md): one main design and optional
 * alternatives (for example a normalised design) whose access patterns are compared by name.
 */
public record Model(String name, String description, int partitions, Design main, List<Design> alternatives) {

    /** A table, the entities stored in it and the access patterns run against it. */
    public record Design(
            String name, String description, TableSpec table, List<Entity> entities, List<AccessPattern> patterns) {
        public Entity entity(String entityName) {
            for (Entity e : entities) {
                if (e.name().equals(entityName)) {
                    return e;
                }
            }
            throw new ModelError("design \"" + name + "\": no entity named \"" + entityName + "\"");
        }
    }

    public record KeyAttribute(String name, String type) {}

    public record Index(
            String name,
            KeyAttribute partitionKey,
            KeyAttribute sortKey,
            String projection,
            List<String> nonKeyAttributes) {}

    public record TableSpec(
            String name,
            KeyAttribute partitionKey,
            KeyAttribute sortKey,
            String ttlAttribute,
            List<Index> globalSecondaryIndexes,
            List<Index> localSecondaryIndexes) {}

    /** One kind of item: its key templates by attribute name (table and index keys) and its other attributes. */
    public record Entity(
            String name,
            String description,
            Map<String, KeyTemplate> keys,
            Map<String, Attribute> attributes,
            Integer perCollection,
            Integer partitions,
            Long sizeBytes,
            Long expectedCount) {}

    /** An attribute's generator: its type and the options that type takes (see the schema). */
    public record Attribute(String name, String type, Map<String, Object> options, boolean stored) {}

    /**
     * An access pattern: one request, or several in order (steps). Its budgets are limits per execution;
     * null when not set. A read that returns nothing fails the check unless {@code mayFindNothing} says
     * that is what the pattern expects (a uniqueness check, say).
     */
    public record AccessPattern(
            String name,
            String description,
            double perSecond,
            List<Request> steps,
            Double maxRcu,
            Double maxWcu,
            Long maxItemsRead,
            Integer maxRequests,
            boolean mayFindNothing) {}

    /** One request of a pattern: the operation and its fields as written in the model (templated). */
    public record Request(String operation, String entity, Map<String, Object> fields) {}
}
