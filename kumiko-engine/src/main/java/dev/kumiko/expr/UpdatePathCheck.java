package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The paths one update touches must be independent: no path may be a prefix of another
 * ("overlap") and two paths may not use one step as both a map key and a list index
 * ("conflict"). Key attributes may not be touched at all.
 */
final class UpdatePathCheck {
    private UpdatePathCheck() {}

    static void check(UpdateExpression u, Map<String, String> names, Collection<String> keyAttributeNames) {
        List<Operand.Path> seen = new ArrayList<>();
        for (UpdateAction a : u.actions()) {
            Operand.Path path = a.path().resolve(names);
            for (Operand.Path earlier : seen) {
                compare(earlier, path);
            }
            seen.add(path);
        }
        checkKeys(u, names, keyAttributeNames);
    }

    static void checkKeys(UpdateExpression u, Map<String, String> names, Collection<String> keyAttributeNames) {
        for (UpdateAction a : u.actions()) {
            Operand.Path path = a.path().resolve(names);
            if (keyAttributeNames.contains(path.firstName())) {
                // DynamoDB's text with its prefix, as users quote it for UpdateExpression updates.
                throw DynamoException.invalidParameter(
                        "Cannot update attribute " + path.firstName() + ". This attribute is part of the key");
            }
        }
    }

    private static void compare(Operand.Path one, Operand.Path two) {
        List<PathElement> a = one.elements();
        List<PathElement> b = two.elements();
        int common = Math.min(a.size(), b.size());
        for (int i = 0; i < common; i++) {
            PathElement x = a.get(i);
            PathElement y = b.get(i);
            if (x.equals(y)) {
                continue;
            }
            if (x.getClass() != y.getClass()) {
                throw ExpressionKind.UPDATE.invalid("Two document paths conflict with each other;"
                        + " must remove or rewrite one of these paths; path one: " + one.display()
                        + ", path two: " + two.display());
            }
            return;
        }
        throw ExpressionKind.UPDATE.invalid("Two document paths overlap with each other;"
                + " must remove or rewrite one of these paths; path one: " + one.display()
                + ", path two: " + two.display());
    }

    /** Projection paths may not overlap either; conflicting index/key steps are allowed there. */
    static void checkProjection(ProjectionExpression p, Map<String, String> names) {
        List<Operand.Path> seen = new ArrayList<>();
        for (Operand.Path raw : p.paths()) {
            Operand.Path path = raw.resolve(names);
            for (Operand.Path earlier : seen) {
                if (isPrefix(earlier, path) || isPrefix(path, earlier)) {
                    throw ExpressionKind.PROJECTION.invalid("Two document paths overlap with each other;"
                            + " must remove or rewrite one of these paths; path one: " + earlier.display()
                            + ", path two: " + path.display());
                }
            }
            seen.add(path);
        }
    }

    private static boolean isPrefix(Operand.Path shorter, Operand.Path longer) {
        List<PathElement> s = shorter.elements();
        List<PathElement> l = longer.elements();
        return s.size() <= l.size() && l.subList(0, s.size()).equals(s);
    }
}
