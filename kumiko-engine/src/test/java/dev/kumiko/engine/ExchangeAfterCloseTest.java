package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.exchange.Exchange;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What an engine's export and import side hands out once the engine is closed: nothing new. An
 * attachment is a job runner with threads of its own (the server's ExchangeService), which only
 * the engine's close closes; one made after that close would run on, unclosed.
 */
class ExchangeAfterCloseTest {

    /** A stand-in for a job runner: counts how often it is made and closed. */
    static final class Runner implements AutoCloseable {
        static final AtomicInteger made = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();

        Runner() {
            made.incrementAndGet();
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    @Test
    void aClosedEngineBuildsNoExchange() {
        Engine e = Engine.inMemory();
        e.close();
        assertThatThrownBy(e::exchange)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the engine is closed");
    }

    @Test
    void theExchangeBuiltBeforeCloseStaysForItsJobsButAttachesNothingNew() {
        Engine e = Engine.inMemory();
        Exchange x = e.exchange();
        Runner before = x.attachment(Runner.class, Runner::new);
        assertThat(x.attachment(Runner.class, Runner::new)).isSameAs(before);
        e.close();

        assertThat(before.closes).hasValue(1);
        assertThat(e.exchange()).isSameAs(x); // a job ending during the close still records its end
        int made = Runner.made.get();
        assertThatThrownBy(() -> x.attachment(Runner.class, Runner::new))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the engine is closed");
        assertThat(Runner.made).hasValue(made);
    }
}
