package dev.kumiko.junit;

import dev.kumiko.embedded.Kumiko;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One test class's server, its fixtures and the endpoint system properties it set;
 * JUnit closes it (as a store resource) when the class is done.
 */
final class ClassServer implements ExtensionContext.Store.CloseableResource {
    /** How a class wants its server. ttlSweepIntervalMillis below 0: the server's default. */
    record Settings(boolean resetBetweenTests, long ttlSweepIntervalMillis, Fixtures fixtures, ClassLoader loader) {}

    private final Kumiko kumiko;
    private final Settings settings;
    private final WireRequests wire;
    /** What the endpoint properties held before (null: unset), put back on close. */
    private final java.util.Map<String, String> previousProperties = new java.util.HashMap<>();

    private @Nullable Object enhancedClient;

    private ClassServer(Kumiko kumiko, Settings settings) {
        this.kumiko = kumiko;
        this.settings = settings;
        this.wire = new WireRequests(kumiko.endpoint());
        for (String name : KumikoExtension.ENDPOINT_PROPERTIES) {
            previousProperties.put(
                    name, System.setProperty(name, kumiko.endpoint().toString()));
        }
    }

    static ClassServer start(Settings settings) {
        Kumiko.Builder b = Kumiko.builder();
        if (settings.ttlSweepIntervalMillis() >= 0) {
            b.ttlSweepIntervalMillis(settings.ttlSweepIntervalMillis());
        }
        Kumiko kumiko = b.start();
        try {
            ClassServer s = new ClassServer(kumiko, settings);
            s.loadFixtures();
            return s;
        } catch (RuntimeException e) {
            kumiko.close();
            throw e;
        }
    }

    Kumiko kumiko() {
        return kumiko;
    }

    boolean resetBetweenTests() {
        return settings.resetBetweenTests();
    }

    /** Every table dropped, TTL's clock back to the system clock, then the fixtures again. */
    void reset() {
        kumiko.reset();
        loadFixtures();
    }

    private void loadFixtures() {
        if (!settings.fixtures().isEmpty()) {
            settings.fixtures().load(settings.loader(), wire);
        }
    }

    /** The enhanced client over {@link Kumiko#dynamoDbClient()}, made once (only if a test asks for it). */
    synchronized Object enhancedClient() {
        if (enhancedClient == null) {
            enhancedClient = EnhancedClients.sync(kumiko);
        }
        return enhancedClient;
    }

    @Override
    public void close() {
        previousProperties.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
        kumiko.close();
    }
}
