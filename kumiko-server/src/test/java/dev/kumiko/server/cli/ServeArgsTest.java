package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * ServeArgs reads a plain `serve` command line into the same fields picocli does, and leaves
 * every other command line to picocli.
 */
class ServeArgsTest {
    /** Command lines drawn from the options below; the seed keeps a failure repeatable. */
    private static final int RANDOM_COMMAND_LINES = 500;

    private static final long SEED = 20261125L;

    /** Every option ServeArgs reads, with a value it reads as picocli does (null: a flag). */
    private static final Map<String, String> OPTIONS = options();

    /** serve's options that only picocli reads. */
    private static final Set<String> PICOCLI_ONLY =
            Set.of("--help", "-h", "--version", "-V", "--request-log", "--peer"); // --peer repeats

    private static Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("--port", "8123");
        m.put("--host", "0.0.0.0");
        m.put("--in-memory", null);
        m.put("--data-dir", "some/dir");
        m.put("--store", "memory");
        m.put("--ignite-endpoints", "127.0.0.1:10800,127.0.0.1:10801");
        m.put("--region", "eu-west-1");
        m.put("--kinesis-endpoint", "http://127.0.0.1:4567");
        m.put("--durability", "fsync");
        m.put("--throttling", null);
        m.put("--ttl-sweep-interval-millis", "0");
        m.put("--point-cache-mb", "16");
        m.put("--idle-compaction-mb", "512");
        m.put("--memory-budget-mb", "64");
        m.put("--in-flight-mb", "32");
        m.put("--auth", "sigv4");
        m.put("--credentials-file", "keys.json");
        m.put("--tls-cert", "cert.pem");
        m.put("--tls-key", "key.pem");
        m.put("-inMemory", null);
        m.put("-port", "8001");
        m.put("-dbPath", "/tmp/ddb");
        m.put("-sharedDb", null);
        m.put("-cors", "*");
        m.put("-delayTransientStatuses", null);
        m.put("-disableTelemetry", null);
        m.put("-optimizeDbBeforeStartup", null);
        m.put("--console", "off");
        m.put("--console-model", "model.json");
        m.put("--s3-endpoint", "http://127.0.0.1:9000");
        m.put("--s3-region", "us-west-2");
        m.put("--s3-access-key-id", "AKID");
        m.put("--s3-secret-access-key", "secret=with=equals");
        m.put("--import-log-dir", "logs");
        m.put("--incremental-export-min-period-seconds", "60");
        return m;
    }

    @Test
    void knowsEveryOptionOfServeThatPicocliKnows() {
        CommandLine serve = Main.commandLine("serve").getSubcommands().get("serve");
        Set<String> picocliNames = new TreeSet<>();
        for (OptionSpec o : serve.getCommandSpec().options()) {
            picocliNames.addAll(Arrays.asList(o.names()));
            if (!PICOCLI_ONLY.contains(o.longestName())) {
                assertThat(OPTIONS.get(o.longestName()) == null)
                        .as("%s is a flag", o.longestName())
                        .isEqualTo(o.arity().max() == 0);
            }
        }
        Set<String> known = new TreeSet<>(OPTIONS.keySet());
        known.addAll(PICOCLI_ONLY);
        assertThat(known).isEqualTo(picocliNames);
    }

    @Test
    void noArgumentsGiveThePicocliDefaults() {
        assertSameAsPicocli("serve");
    }

    @Test
    void eachOptionAloneInBothForms() {
        OPTIONS.forEach((name, value) -> {
            if (value == null) {
                assertSameAsPicocli("serve", name);
            } else {
                assertSameAsPicocli("serve", name, value);
                assertSameAsPicocli("serve", name + "=" + value);
            }
        });
    }

    @Test
    void randomCommandLinesReadAsPicocliReadsThem() {
        SplittableRandom random = new SplittableRandom(SEED);
        List<String> names = new ArrayList<>(OPTIONS.keySet());
        for (int n = 0; n < RANDOM_COMMAND_LINES; n++) {
            List<String> args = new ArrayList<>(List.of("serve"));
            Set<String> used = new HashSet<>();
            int count = random.nextInt(names.size() + 1);
            for (int k = 0; k < count; k++) {
                String name = names.get(random.nextInt(names.size()));
                if (!used.add(name)) {
                    continue;
                }
                String value = OPTIONS.get(name);
                if (value == null) {
                    args.add(name);
                } else if (random.nextBoolean()) {
                    args.add(name + "=" + value);
                } else {
                    args.add(name);
                    args.add(value);
                }
            }
            assertSameAsPicocli(args.toArray(String[]::new));
        }
    }

    @Test
    void leavesToPicocliWhatPicocliMustAnswer() {
        List<String[]> picocliOnly = List.of(
                new String[] {},
                new String[] {"export", "t"},
                new String[] {"serve", "--help"},
                new String[] {"serve", "-h"},
                new String[] {"serve", "--version"},
                new String[] {"serve", "--request-log"},
                new String[] {"serve", "--request-log=stdout"},
                new String[] {"serve", "--no-such-option"},
                new String[] {"serve", "stray"},
                new String[] {"serve", "--"},
                new String[] {"serve", "@args.txt"},
                new String[] {"serve", "--port", "8000", "--port", "8001"},
                new String[] {"serve", "--in-memory", "--in-memory"},
                new String[] {"serve", "--in-memory=true"},
                new String[] {"serve", "--port"},
                new String[] {"serve", "--port", "abc"},
                new String[] {"serve", "--port", "08000"},
                new String[] {"serve", "--port", "0x1F"},
                new String[] {"serve", "--port", "99999999999"},
                new String[] {"serve", "--port", "-1"},
                new String[] {"serve", "--host="},
                new String[] {"serve", "--host", "--in-memory"},
                new String[] {"serve", "--host", "@file"},
                new String[] {"serve", "--s3-endpoint", "http://bad host/"},
                new String[] {"serve", "--data-dir", "nul\0byte"});
        for (String[] args : picocliOnly) {
            assertThat(ServeArgs.parse(args)).as(String.join(" ", args)).isNull();
        }
    }

    @Test
    void plainDigitsAreDecimalWithoutALeadingZero() {
        assertThat(ServeArgs.plainDigits("0", 9)).isTrue();
        assertThat(ServeArgs.plainDigits("8000", 9)).isTrue();
        assertThat(ServeArgs.plainDigits("123456789", 9)).isTrue();
        assertThat(ServeArgs.plainDigits("1234567890", 9)).isFalse();
        assertThat(ServeArgs.plainDigits("007", 9)).isFalse();
        assertThat(ServeArgs.plainDigits("+7", 9)).isFalse();
        assertThat(ServeArgs.plainDigits("", 9)).isFalse();
    }

    /**
     * A size outside RocksStore's bounds is refused before the store opens (a refusal that did not
     * happen would start a server, which the timeout turns into a failure).
     */
    @Test
    void sizeOptionsOutsideTheStoreBoundsAreRefused() {
        for (String option : List.of("--idle-compaction-mb", "--point-cache-mb")) {
            for (String mib : List.of("-1", "1048577")) {
                PrintStream err = System.err;
                ByteArrayOutputStream captured = new ByteArrayOutputStream();
                System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
                try {
                    int exit = assertTimeoutPreemptively(
                            Duration.ofSeconds(30),
                            () -> Main.commandLine("serve")
                                    .execute("serve", "--port", "0", "--in-memory", option, mib));
                    assertThat(exit).as("%s %s", option, mib).isEqualTo(2);
                } finally {
                    System.setErr(err);
                }
                assertThat(captured.toString(StandardCharsets.UTF_8))
                        .contains(option + " must be 0 or in [1, 1048576]");
            }
        }
    }

    private static void assertSameAsPicocli(String... args) {
        ServeCommand fast = ServeArgs.parse(args);
        assertThat(fast).as("ServeArgs reads %s", String.join(" ", args)).isNotNull();
        CommandLine cmd = Main.commandLine(args);
        cmd.parseArgs(args);
        ServeCommand picocli = cmd.getSubcommands().get("serve").getCommand();
        assertThat(optionValues(fast)).as(String.join(" ", args)).isEqualTo(optionValues(picocli));
    }

    /** Every @Option field of the command and its mixins, by name. */
    private static Map<String, Object> optionValues(ServeCommand serve) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Object part : List.of(serve, serve.dynamoDbLocalFlags, serve.consoleOptions, serve.exchangeOptions)) {
            for (Field f : part.getClass().getDeclaredFields()) {
                if (f.isAnnotationPresent(CommandLine.Option.class)) {
                    try {
                        f.setAccessible(true);
                        values.put(part.getClass().getSimpleName() + "." + f.getName(), f.get(part));
                    } catch (IllegalAccessException e) {
                        throw new AssertionError(e);
                    }
                }
            }
        }
        assertThat(values).hasSizeGreaterThan(OPTIONS.size() - 1);
        return values;
    }
}
