package dev.kumiko.server.protocol;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.error.MemberConstraintException;
import dev.kumiko.expr.LegacyExpressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB reports a request whose members do not go together (legacy and expression members
 * mixed, ExpressionAttributeNames or ExpressionAttributeValues without any expression) before a
 * malformed AttributeValue in it. Kumiko finds the AttributeValue while decoding, before the
 * engine judges the combination; so when decoding fails with a ValidationException, the body's
 * members are checked for a bad combination first, with the engine's rules and texts. Only the
 * failing path pays for it.
 */
final class ParameterCombinations {
    /** Member order as the engine lists them in its "Can not use both ..." message. */
    private static final List<String> LEGACY = List.of(
            "AttributeUpdates",
            "AttributesToGet",
            "Expected",
            "QueryFilter",
            "ScanFilter",
            "KeyConditions",
            "ConditionalOperator");

    private static final List<String> EXPRESSIONS = List.of(
            "UpdateExpression",
            "ConditionExpression",
            "ProjectionExpression",
            "FilterExpression",
            "KeyConditionExpression");

    private ParameterCombinations() {}

    /** decoder, except that a bad combination wins over an AttributeValue the decoder refused. */
    static <R> Operation.Decoder<R> first(Operation.Decoder<R> decoder) {
        return body -> {
            try {
                return decoder.decode(body);
            } catch (DynamoException e) {
                // Member constraints come before every semantic check in DynamoDB, so a decoder that
                // reports one keeps it (a MemberViolations is no DynamoException: it passes too).
                if (e.code() == ErrorCode.VALIDATION && body != null && !(e instanceof MemberConstraintException)) {
                    check(body);
                }
                throw e;
            }
        };
    }

    static void check(Map<String, Object> body) {
        List<String> legacy = present(body, LEGACY);
        List<String> expressions = present(body, EXPRESSIONS);
        // A Query's legacy KeyConditions may stand beside FilterExpression and ProjectionExpression.
        boolean keyConditionsAlone =
                legacy.equals(List.of("KeyConditions")) && !expressions.contains("KeyConditionExpression");
        if (!keyConditionsAlone) {
            LegacyExpressions.checkNotMixed(legacy, expressions);
        }
        if (expressions.isEmpty() && body.get("ExpressionAttributeNames") != null) {
            throw DynamoException.validation("ExpressionAttributeNames can only be specified when using expressions");
        }
        if (expressions.isEmpty() && body.get("ExpressionAttributeValues") != null) {
            throw DynamoException.validation("ExpressionAttributeValues can only be specified when using expressions");
        }
    }

    private static List<String> present(Map<String, Object> body, List<String> names) {
        List<String> out = new ArrayList<>(2);
        for (String name : names) {
            Object v = body.get(name);
            boolean emptyConditions = v instanceof Map<?, ?> m
                    && m.isEmpty()
                    && !name.equals("AttributeUpdates")
                    && !name.equals("KeyConditions");
            if (v != null && !emptyConditions) {
                out.add(name);
            }
        }
        return out;
    }
}
