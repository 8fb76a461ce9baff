package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.exchange.ExchangeSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --incremental-export-min-period-seconds: DynamoDB's 15 minutes by default, lowered for tests, checked. */
class ExchangeOptionsTest {
    private static String[] serve(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new ServeCommand()).execute(args);
            String[] lines = err.toString(StandardCharsets.UTF_8).strip().split("\n");
            return new String[] {Integer.toString(code), lines[lines.length - 1]};
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void theMinimumPeriodIsDynamoDbsUnlessLowered() {
        ExchangeOptions o = new ExchangeOptions();
        new CommandLine(o).parseArgs();
        assertThat(o.settings().incrementalPeriodMinMillis()).isEqualTo(15 * 60 * 1000L);
        new CommandLine(o).parseArgs("--incremental-export-min-period-seconds", "2");
        assertThat(o.settings().incrementalPeriodMinMillis()).isEqualTo(2_000L);
        assertThat(ExchangeSettings.defaults().incrementalPeriodMinMillis()).isEqualTo(15 * 60 * 1000L);
    }

    @Test
    void valuesOutsideOneSecondToFifteenMinutesAreRefusedInOneLine() {
        assertThat(serve("--in-memory", "--incremental-export-min-period-seconds=0"))
                .containsExactly("2", "--incremental-export-min-period-seconds must be 1 to 900");
        assertThat(serve("--in-memory", "--incremental-export-min-period-seconds=901"))
                .containsExactly("2", "--incremental-export-min-period-seconds must be 1 to 900");
    }
}
