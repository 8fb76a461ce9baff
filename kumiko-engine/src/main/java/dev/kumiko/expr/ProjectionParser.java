package dev.kumiko.expr;

import java.util.ArrayList;
import java.util.List;

/** Parses {@code path, path, ...}. */
final class ProjectionParser extends ParserBase {

    private ProjectionParser(String source) {
        super(source, ExpressionKind.PROJECTION);
    }

    static ProjectionExpression parse(String source) {
        ProjectionParser parser = new ProjectionParser(source);
        List<Operand.Path> paths = new ArrayList<>();
        paths.add(parser.parsePath());
        while (parser.at(Token.Kind.COMMA)) {
            parser.next();
            paths.add(parser.parsePath());
        }
        parser.expectEnd();
        return new ProjectionExpression(paths);
    }
}
