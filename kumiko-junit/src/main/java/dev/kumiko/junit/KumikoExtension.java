package dev.kumiko.junit;

import dev.kumiko.embedded.Kumiko;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/**
 * The JUnit 5 extension behind {@link KumikoTest}; register it yourself for options in code:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KumikoExtension KUMIKO = new KumikoExtension().resetBetweenTests().tables("tables/*.json");
 * }</pre>
 *
 * One server per test class (a {@code @Nested} class shares its outer class's), closed after the
 * class: it lives in the class's extension store, which JUnit closes when the class is done. What it injects is listed in {@link Injectables}.
 */
public final class KumikoExtension
        implements BeforeAllCallback, BeforeEachCallback, TestInstancePostProcessor, ParameterResolver {
    /**
     * Read by the AWS SDK for Java v2 as the DynamoDB endpoint of clients built without
     * endpointOverride (the spelling is the SDK's: the service id "DynamoDB" in camel case).
     */
    public static final String ENDPOINT_PROPERTY = "aws.endpointUrlDynamoDb";
    /** The same for DynamoDB Streams clients. */
    public static final String STREAMS_ENDPOINT_PROPERTY = "aws.endpointUrlDynamoDbStreams";
    /** Also set, in the all-lower-case spelling some tools and guides use for the DynamoDB endpoint. */
    public static final String ENDPOINT_PROPERTY_LOWER = "aws.endpointUrlDynamodb";

    static final java.util.List<String> ENDPOINT_PROPERTIES =
            java.util.List.of(ENDPOINT_PROPERTY, STREAMS_ENDPOINT_PROPERTY, ENDPOINT_PROPERTY_LOWER);
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KumikoExtension.class);

    private boolean resetBetweenTests;
    private final List<String> tables = new ArrayList<>();
    private final List<String> items = new ArrayList<>();
    private long ttlSweepIntervalMillis = -1;

    /** Drop every table before each test, then create the tables and load the items again. */
    public KumikoExtension resetBetweenTests() {
        this.resetBetweenTests = true;
        return this;
    }

    /** As {@link KumikoTables}. */
    public KumikoExtension tables(String... patterns) {
        tables.addAll(Arrays.asList(patterns));
        return this;
    }

    /** As {@link KumikoItems}. */
    public KumikoExtension items(String... patterns) {
        items.addAll(Arrays.asList(patterns));
        return this;
    }

    /** As {@link Kumiko.Builder#ttlSweepIntervalMillis}: 0 deletes expired items only when a test sweeps. */
    public KumikoExtension ttlSweepIntervalMillis(long millis) {
        this.ttlSweepIntervalMillis = millis;
        return this;
    }

    /** The server of the running test class (for a static {@code @RegisterExtension} field's users). */
    public static Kumiko kumiko(ExtensionContext context) {
        return server(context).kumiko();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        ClassServer server = server(context);
        Injectables.injectFields(null, context.getRequiredTestClass(), server);
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws IllegalAccessException {
        Injectables.injectFields(testInstance, testInstance.getClass(), server(context));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        ClassServer server = server(context);
        if (server.resetBetweenTests()) {
            server.reset();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return Injectables.supports(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return Injectables.value(parameter.getParameter().getType(), server(context));
    }

    /** The class's server, started on first use; a nested class or a test method finds its outer class's. */
    private static ClassServer server(ExtensionContext context) {
        ExtensionContext classContext = classContext(context);
        return classContext
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        ClassServer.class, key -> ClassServer.start(settings(classContext)), ClassServer.class);
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
            c = c.getParent().get();
        }
        // A @Nested class reuses the server of the outermost enclosing class that uses Kumiko.
        while (c.getParent().isPresent()
                && c.getParent()
                        .get()
                        .getTestClass()
                        .map(KumikoExtension::usesKumiko)
                        .orElse(false)) {
            c = c.getParent().get();
        }
        return c;
    }

    private static boolean usesKumiko(Class<?> testClass) {
        return testClass.isAnnotationPresent(KumikoTest.class)
                || !registeredInstances(testClass).isEmpty();
    }

    /** The annotations of the class (and the classes it is nested in) plus this registered instance's options. */
    private static ClassServer.Settings settings(ExtensionContext classContext) {
        Class<?> testClass = classContext.getRequiredTestClass();
        List<KumikoExtension> registered = registeredInstances(testClass);
        boolean reset = false;
        long sweepMillis = -1;
        List<String> tables = new ArrayList<>();
        List<String> items = new ArrayList<>();
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            KumikoTest test = c.getAnnotation(KumikoTest.class);
            reset |= test != null && test.resetBetweenTests();
            Optional.ofNullable(c.getAnnotation(KumikoTables.class)).ifPresent(t -> tables.addAll(List.of(t.value())));
            Optional.ofNullable(c.getAnnotation(KumikoItems.class)).ifPresent(t -> items.addAll(List.of(t.value())));
        }
        for (KumikoExtension e : registered) {
            reset |= e.resetBetweenTests;
            tables.addAll(e.tables);
            items.addAll(e.items);
            sweepMillis = Math.max(sweepMillis, e.ttlSweepIntervalMillis);
        }
        return new ClassServer.Settings(reset, sweepMillis, new Fixtures(tables, items), testClass.getClassLoader());
    }

    /** Instances in static {@code @RegisterExtension} fields (an instance field's options arrive too late). */
    private static List<KumikoExtension> registeredInstances(Class<?> testClass) {
        List<KumikoExtension> out = new ArrayList<>();
        for (Class<?> c = testClass; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == KumikoExtension.class) {
                    try {
                        f.setAccessible(true);
                        KumikoExtension e = (KumikoExtension) f.get(null);
                        if (e != null) {
                            out.add(e);
                        }
                    } catch (IllegalAccessException | RuntimeException e) {
                        throw new IllegalStateException("cannot read " + f, e);
                    }
                }
            }
        }
        return out;
    }
}
