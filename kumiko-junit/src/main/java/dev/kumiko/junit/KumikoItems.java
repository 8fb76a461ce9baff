package dev.kumiko.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Items to load after the {@link KumikoTables} are created (and after each reset), from class-path
 * resources, in name order:
 * <ul>
 *   <li>{@code *.json}: the request items of {@code aws dynamodb batch-write-item --request-items
 *       file://...}, i.e. {@code {"Table": [{"PutRequest": {"Item": {...}}}, ...]}} in DynamoDB JSON
 *       (at most 25 requests per file, as BatchWriteItem allows);</li>
 *   <li>{@code *.jsonl}: one PutItem request per line, {@code {"TableName": ..., "Item": {...}}}, for
 *       any number of items.</li>
 * </ul>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface KumikoItems {
    String[] value();
}
