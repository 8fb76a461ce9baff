package dev.kumiko.junit;

import dev.kumiko.embedded.Kumiko;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the extension injects into fields and parameters: the {@link Kumiko} handle, the SDK's
 * {@code DynamoDbClient}, {@code DynamoDbAsyncClient}, {@code DynamoDbStreamsClient},
 * {@code DynamoDbEnhancedClient} and {@code DynamoDbEnhancedAsyncClient}. Types are compared by name,
 * so a missing optional SDK module (the enhanced client) is never loaded.
 */
final class Injectables {
    private static final String SDK = "software.amazon.awssdk.";
    static final String SYNC = SDK + "services.dynamodb.DynamoDbClient";
    static final String ASYNC = SDK + "services.dynamodb.DynamoDbAsyncClient";
    static final String STREAMS = SDK + "services.dynamodb.streams.DynamoDbStreamsClient";
    static final String ENHANCED = SDK + "enhanced.dynamodb.DynamoDbEnhancedClient";
    static final String ENHANCED_ASYNC = SDK + "enhanced.dynamodb.DynamoDbEnhancedAsyncClient";
    private static final Set<String> TYPES =
            Set.of(Kumiko.class.getName(), SYNC, ASYNC, STREAMS, ENHANCED, ENHANCED_ASYNC);

    private Injectables() {}

    static boolean supports(Class<?> type) {
        return TYPES.contains(type.getName());
    }

    static Object value(Class<?> type, ClassServer server) {
        Kumiko kumiko = server.kumiko();
        return switch (type.getName()) {
            case SYNC -> kumiko.dynamoDbClient();
            case ASYNC -> kumiko.dynamoDbAsyncClient();
            case STREAMS -> kumiko.streamsClient();
            case ENHANCED -> server.enhancedClient();
            case ENHANCED_ASYNC -> EnhancedClients.async(kumiko);
            default -> kumiko;
        };
    }

    /**
     * Fills the null fields of a supported type: the static ones when instance is null, else the
     * instance's. A field the test already set is left alone.
     */
    static void injectFields(@Nullable Object instance, Class<?> type, ClassServer server)
            throws IllegalAccessException {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(f.getModifiers());
                if (isStatic != (instance == null) || Modifier.isFinal(f.getModifiers()) || !supports(f.getType())) {
                    continue;
                }
                f.setAccessible(true);
                if (f.get(instance) == null) {
                    f.set(instance, value(f.getType(), server));
                }
            }
        }
    }
}
