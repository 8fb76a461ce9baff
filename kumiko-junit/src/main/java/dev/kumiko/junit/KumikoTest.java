package dev.kumiko.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against an embedded Kumiko: one server per class, started before the first
 * test and closed after the last. Fields and parameters of type {@code DynamoDbClient},
 * {@code DynamoDbAsyncClient}, {@code DynamoDbEnhancedClient}, {@code DynamoDbStreamsClient} and
 * {@link dev.kumiko.embedded.Kumiko} are filled in (fields only while null). The system properties
 * {@code aws.endpointUrlDynamoDb} (the SDK's), {@code aws.endpointUrlDynamoDbStreams} and
 * {@code aws.endpointUrlDynamodb} point at the server while the class runs, so code that builds its
 * own SDK client finds it too.
 *
 * <pre>{@code
 * @KumikoTest
 * class OrdersTest {
 *     DynamoDbClient ddb;
 *     ...
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KumikoExtension.class)
public @interface KumikoTest {
    /**
     * Drop every table before each test (then create the {@link KumikoTables} and load the
     * {@link KumikoItems} again), so that no test sees another's data. Off by default: tests of one
     * class share the server's data.
     */
    boolean resetBetweenTests() default false;
}
