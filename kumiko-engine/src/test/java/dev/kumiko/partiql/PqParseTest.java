package dev.kumiko.partiql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kumiko.error.DynamoException;
import org.junit.jupiter.api.Test;

/** A request's statement is parsed once: the authorization rule and the engine share the tree. */
class PqParseTest {
    @Test
    void parsesOnceAndHandsOutTheSameTree() {
        PqParse p = new PqParse("SELECT * FROM \"T\" WHERE pk = 'a'", null);
        PqStatement first = p.statement();
        assertThat(p.statement()).isSameAs(first);
        assertThat(first.tableName()).isEqualTo("T");
    }

    @Test
    void aFailureIsKeptAndThrownAgain() {
        PqParse p = new PqParse("SELEC nothing", null);
        Throwable first = catchThrowable(p::statement);
        assertThat(first).isInstanceOf(DynamoException.class);
        assertThat(catchThrowable(p::statement)).isSameAs(first);
    }

    @Test
    void requestsWithTheSameStatementAreEqual() {
        var a = new PqRequests.TransactStatement("DELETE FROM \"T\" WHERE pk = 'a'", null, null);
        var b = new PqRequests.TransactStatement("DELETE FROM \"T\" WHERE pk = 'a'", null, null);
        a.parse().statement();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    }
}
