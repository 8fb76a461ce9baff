package dev.kumiko.partiql;

import dev.kumiko.expr.Condition;
import dev.kumiko.expr.Operand;
import dev.kumiko.expr.UpdateAction;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The one parser of DynamoDB's PartiQL dialect: SELECT, INSERT, UPDATE, DELETE and (inside
 * ExecuteTransaction) EXISTS(SELECT ...), with {@code ?} bound to the request's Parameters.
 * The grammar is in docs/partiql.md.
 */
public final class PqParser {
    private final PqCursor in;
    private final PqValueParser values;
    private final PqConditionParser conditions;

    private PqParser(String statement, @Nullable List<AttributeValue> parameters) {
        this.in = new PqCursor(PqLexer.tokenize(statement), parameters);
        this.values = new PqValueParser(in);
        this.conditions = new PqConditionParser(in, values);
    }

    /** Parses and binds one statement; throws DynamoDB's ValidationException when it cannot. */
    public static PqStatement parse(String statement, @Nullable List<AttributeValue> parameters) {
        return new PqParser(statement, parameters).statement();
    }

    private PqStatement statement() {
        PqToken first = in.peek();
        PqStatement s;
        if (first.isWord("SELECT")) {
            s = select();
        } else if (first.isWord("INSERT")) {
            s = insert();
        } else if (first.isWord("UPDATE")) {
            s = update();
        } else if (first.isWord("DELETE")) {
            s = delete();
        } else if (first.isWord("EXISTS")) {
            in.next();
            in.expectSymbol("(");
            PqStatement.Select inner = select();
            in.expectSymbol(")");
            s = new PqStatement.Exists(inner);
        } else {
            throw PqErrors.unexpected(first);
        }
        in.acceptSymbol(";");
        if (!in.atEnd()) {
            throw PqErrors.notWellFormed(PqErrors.LEFTOVER);
        }
        in.checkParameterCount();
        return s;
    }

    private PqStatement.Select select() {
        in.expectWord("SELECT");
        List<Operand.Path> projection = null;
        if (!in.acceptSymbol("*")) {
            projection = new ArrayList<>();
            do {
                projection.add(conditions.path());
            } while (in.acceptSymbol(","));
        }
        in.expectWord("FROM");
        String table = conditions.name();
        String index = in.acceptSymbol(".") ? conditions.name() : null;
        refuseAlias();
        Condition where = in.acceptWord("WHERE") ? conditions.condition() : null;
        List<PqStatement.OrderBy> orderBy = new ArrayList<>();
        if (in.acceptWord("ORDER")) {
            in.expectWord("BY");
            do {
                Operand.Path path = conditions.path();
                boolean descending = in.acceptWord("DESC");
                if (!descending) {
                    in.acceptWord("ASC");
                }
                orderBy.add(new PqStatement.OrderBy(path, descending));
            } while (in.acceptSymbol(","));
        }
        return new PqStatement.Select(projection, table, index, where, orderBy);
    }

    private PqStatement.Insert insert() {
        in.expectWord("INSERT");
        in.expectWord("INTO");
        String table = conditions.name();
        if (!in.acceptWord("VALUE")) {
            throw PqErrors.notWellFormed(PqErrors.LEFTOVER);
        }
        AttributeValue item = values.value();
        if (!(item instanceof AttributeValue.M m)) {
            // UNVERIFIED wording: DynamoDB inserts only a map (a tuple) as the item.
            throw PqErrors.validation("Unsupported data type: INSERT VALUE must be a map of attribute names to values");
        }
        return new PqStatement.Insert(table, m.values());
    }

    private PqStatement.Update update() {
        in.expectWord("UPDATE");
        String table = conditions.name();
        refuseAlias();
        List<UpdateAction> actions = new ArrayList<>();
        while (true) {
            if (in.acceptWord("SET")) {
                do {
                    actions.add(new PqAssignmentParser(in, values, conditions).assignment());
                } while (in.acceptSymbol(","));
            } else if (in.acceptWord("REMOVE")) {
                do {
                    actions.add(new UpdateAction.Remove(conditions.path()));
                } while (in.acceptSymbol(","));
            } else {
                break;
            }
        }
        if (actions.isEmpty()) {
            throw PqErrors.unexpected(in.peek());
        }
        in.expectWord("WHERE");
        Condition where = conditions.condition();
        return new PqStatement.Update(table, actions, where, returning(false));
    }

    private PqStatement.Delete delete() {
        in.expectWord("DELETE");
        in.expectWord("FROM");
        String table = conditions.name();
        refuseAlias();
        in.expectWord("WHERE");
        Condition where = conditions.condition();
        return new PqStatement.Delete(table, where, returning(true));
    }

    /** {@code RETURNING [ALL | MODIFIED] [OLD | NEW] *} as UpdateItem/DeleteItem's ReturnValues. */
    private @Nullable ReturnValue returning(boolean delete) {
        if (!in.acceptWord("RETURNING")) {
            return null;
        }
        PqToken scope = in.next();
        PqToken age = in.next();
        in.expectSymbol("*");
        String s = scope.text().toUpperCase(Locale.ROOT);
        String a = age.text().toUpperCase(Locale.ROOT);
        if (!(s.equals("ALL") || s.equals("MODIFIED")) || !(a.equals("OLD") || a.equals("NEW"))) {
            throw PqErrors.unexpected(scope);
        }
        ReturnValue returnValues = ReturnValue.valueOf((s.equals("ALL") ? "ALL_" : "UPDATED_") + a);
        if (delete && returnValues != ReturnValue.ALL_OLD) {
            // UNVERIFIED wording: DELETE accepts only RETURNING ALL OLD *.
            throw PqErrors.validation("Unsupported RETURNING clause for DELETE statement: only ALL OLD * is supported");
        }
        return returnValues;
    }

    private void refuseAlias() {
        PqToken t = in.peek();
        if (t.isWord("AS") || PqConditionParser.isName(t)) {
            throw PqErrors.validation(PqErrors.ALIASING);
        }
    }
}
