package dev.kumiko.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Tables to create when the server starts (and after each reset), from class-path resources that
 * hold CreateTable requests: the JSON of {@code aws dynamodb create-table --cli-input-json}, which
 * is also CreateTable's wire format. A pattern may end in a glob over file names
 * ({@code "tables/*.json"}); files are created in name order; a pattern that matches nothing fails
 * the test class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface KumikoTables {
    String[] value();
}
