package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.MemberConstraintException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The legacy ComparisonOperator values, their argument rules and their AST equivalents. */
enum LegacyOperator {
    EQ,
    NE,
    LE,
    LT,
    GE,
    GT,
    NOT_NULL,
    NULL,
    CONTAINS,
    NOT_CONTAINS,
    BEGINS_WITH,
    IN,
    BETWEEN;

    static LegacyOperator parse(@Nullable String name) {
        if (name == null) {
            // Found by the fuzzer (a Condition without ComparisonOperator). UNVERIFIED wording: DynamoDB's
            // constraint-validation form; it names the full member path (e.g. keyConditions.PK.member...).
            throw new MemberConstraintException("1 validation error detected: Value null at 'comparisonOperator' "
                    + "failed to satisfy constraint: Member must not be null");
        }
        try {
            return valueOf(name);
        } catch (IllegalArgumentException e) {
            // Unverified wording; the server's JSON decoding normally rejects unknown enum values first.
            throw new MemberConstraintException("1 validation error detected: Value '" + name
                    + "' at 'comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set:"
                    + " [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
        }
    }

    void check(List<AttributeValue> args) {
        boolean countOk;
        switch (this) {
            case NULL:
            case NOT_NULL:
                countOk = args.isEmpty();
                break;
            case IN:
                countOk = !args.isEmpty();
                break;
            case BETWEEN:
                countOk = args.size() == 2;
                break;
            default:
                countOk = args.size() == 1;
                break;
        }
        if (!countOk) {
            throw DynamoException.invalidParameter(
                    "Invalid number of argument(s) for the " + this + " ComparisonOperator");
        }
        for (AttributeValue v : args) {
            if (!typeAllowed(v.type())) {
                // Unverified wording.
                throw DynamoException.invalidParameter(
                        "ComparisonOperator " + this + " is not valid for " + v.type() + " AttributeValue type");
            }
        }
        if ((this == IN || this == BETWEEN)
                && args.stream().anyMatch(v -> v.type() != args.get(0).type())) {
            // Recalled DynamoDB wording, UNVERIFIED against a capture.
            throw DynamoException.invalidParameter("AttributeValues inside AttributeValueList must be of same type");
        }
        if (this == BETWEEN
                && args.get(0).type() == args.get(1).type()
                && Values.compare(args.get(0), args.get(1)) > 0) {
            // Unverified wording.
            throw DynamoException.invalidParameter(
                    "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
        }
    }

    private boolean typeAllowed(AttributeType t) {
        switch (this) {
            case EQ:
            case NE:
                return true;
            case BEGINS_WITH:
                return t == AttributeType.S || t == AttributeType.B;
            default:
                return Values.isOrderable(t);
        }
    }

    Condition toCondition(Operand path, List<Operand> args) {
        switch (this) {
            case EQ:
                return new Condition.Compare(Comparator.EQ, path, args.get(0));
            case NE:
                return new Condition.Compare(Comparator.NE, path, args.get(0));
            case LE:
                return new Condition.Compare(Comparator.LE, path, args.get(0));
            case LT:
                return new Condition.Compare(Comparator.LT, path, args.get(0));
            case GE:
                return new Condition.Compare(Comparator.GE, path, args.get(0));
            case GT:
                return new Condition.Compare(Comparator.GT, path, args.get(0));
            case NOT_NULL:
                return new Condition.AttributeExists(path);
            case NULL:
                return new Condition.AttributeNotExists(path);
            case CONTAINS:
                return new Condition.Contains(path, args.get(0));
            case NOT_CONTAINS:
                // It tests the attribute's value, so a missing attribute fails it, unlike the
                // expression NOT contains(a, :v), which is true there.
                return new Condition.And(
                        new Condition.AttributeExists(path),
                        new Condition.Not(new Condition.Contains(path, args.get(0))));
            case BEGINS_WITH:
                return new Condition.BeginsWith(path, args.get(0));
            case IN:
                return new Condition.In(path, args);
            case BETWEEN:
                return new Condition.Between(path, args.get(0), args.get(1));
            default:
                throw new AssertionError(this);
        }
    }
}
