package dev.kumiko.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.expr.ExpressionKind;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.AttributeValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bounded fuzzing of the request parsers, in process: the JSON reader, the AttributeValue decoder
 * and the expression parsers with their placeholder and type checks. Each case either succeeds or
 * throws a DynamoException with a 4xx status; anything else (NullPointerException, a 500,
 * StackOverflowError, ...) fails the pass. Seeds, counts and how to replay: docs/fuzzing.md.
 */
@Tag("slow")
class ParserFuzzTest {
    static final long SEED = 20260101L;
    static final int JSON_CASES = FuzzRun.cases(15_000);
    static final int ATTRIBUTE_CASES = FuzzRun.cases(15_000);
    static final int EXPRESSION_CASES = FuzzRun.cases(25_000);

    @Test
    void jsonReader() {
        List<byte[]> corpus = new ArrayList<>();
        Corpus.load("requests").forEach(e -> corpus.add(e.bytes()));
        Corpus.load("items").forEach(e -> corpus.add(e.bytes()));
        TreeMutations trees = new TreeMutations(dictionary(corpus));
        FuzzRun run = new FuzzRun("json", SEED);
        for (byte[] saved : corpus) {
            run.check(-1, saved, in -> JsonTree.parseObject(in, 0, in.length));
        }
        for (int i = 0; i < JSON_CASES; i++) {
            SplittableRandom r = run.random(i);
            byte[] input = jsonInput(r, corpus, trees);
            run.check(i, input, in -> JsonTree.parseObject(in, 0, in.length));
        }
        run.finish();
    }

    static byte[] jsonInput(SplittableRandom r, List<byte[]> corpus, TreeMutations trees) {
        byte[] seed = corpus.get(r.nextInt(corpus.size()));
        byte[] other = corpus.get(r.nextInt(corpus.size()));
        switch (r.nextInt(4)) {
            case 0: {
                byte[] random = new byte[r.nextInt(64)];
                r.nextBytes(random);
                return random;
            }
            case 1:
                return JsonText.write(trees.mutate(r, JsonTree.parseObject(seed, 0, seed.length)));
            default:
                return ByteMutations.mutate(r, seed, other);
        }
    }

    @Test
    void attributeValueDecoder() {
        List<byte[]> corpus = new ArrayList<>();
        Corpus.load("items").forEach(e -> corpus.add(e.bytes()));
        TreeMutations trees = new TreeMutations(dictionary(corpus));
        FuzzRun run = new FuzzRun("attribute-values", SEED);
        for (byte[] saved : corpus) {
            run.check(-1, saved, ParserFuzzTest::decodeItem);
        }
        for (int i = 0; i < ATTRIBUTE_CASES; i++) {
            SplittableRandom r = run.random(i);
            byte[] seed = corpus.get(r.nextInt(corpus.size()));
            Object tree = r.nextInt(3) == 0
                    ? randomItem(r, trees)
                    : trees.mutate(r, JsonTree.parseObject(seed, 0, seed.length));
            byte[] input = JsonText.write(tree);
            run.check(i, input, ParserFuzzTest::decodeItem);
        }
        run.finish();
    }

    private static void decodeItem(byte[] in) {
        Map<String, AttributeValue> item = AttributeValues.decodeMap(JsonTree.parseObject(in, 0, in.length), 0);
        assertThat(ItemSize.of(item)).isNotNegative();
    }

    private static Map<String, Object> randomItem(SplittableRandom r, TreeMutations trees) {
        Map<String, Object> item = new LinkedHashMap<>();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            item.put("a" + i, trees.randomValue(r, 0));
        }
        return item;
    }

    // ---- expressions ----

    /** Expression tokens for random token strings: operators, functions, keywords, paths, placeholders. */
    private static final List<String> EXPRESSION_TOKENS = List.of(
            "a",
            "b.c",
            "#a",
            "#b",
            "#undefined",
            ":v",
            ":w",
            ":t",
            ":l",
            ":s",
            ":undefined",
            "[0]",
            "[99999999999]",
            "[-1]",
            ".",
            "=",
            "<>",
            "<",
            "<=",
            ">",
            ">=",
            "AND",
            "OR",
            "NOT",
            "BETWEEN",
            "IN",
            "(",
            ")",
            ",",
            "attribute_exists",
            "attribute_not_exists",
            "attribute_type",
            "begins_with",
            "contains",
            "size",
            "if_not_exists",
            "list_append",
            "SET",
            "REMOVE",
            "ADD",
            "DELETE",
            "+",
            "-",
            "PK",
            "SK",
            "name",
            "\u00e9",
            "\"",
            "'",
            ";",
            "$",
            "  ",
            "NOT NOT NOT",
            "((((",
            "))))",
            "a.b.c.d.e.f.g[1][2][3]");

    private static final Map<String, String> NAMES = Map.of("#a", "a", "#b", "PK", "#n", "count");
    private static final Map<String, AttributeValue> VALUES = Map.of(
            ":v", AttributeValues.decode(Map.of("N", "1"), 0),
            ":w", AttributeValues.decode(Map.of("S", "x"), 0),
            ":t", AttributeValues.decode(Map.of("S", "N"), 0),
            ":l", AttributeValues.decode(Map.of("L", List.of()), 0),
            ":s", AttributeValues.decode(Map.of("SS", List.of("a")), 0));
    private static final Map<String, AttributeValue> ITEM = item("{\"PK\":{\"S\":\"x\"},\"SK\":{\"S\":\"y\"},"
            + "\"a\":{\"N\":\"5\"},\"b\":{\"M\":{\"c\":{\"L\":[{\"S\":\"z\"}]}}},\"s\":{\"SS\":[\"a\",\"b\"]},"
            + "\"l\":{\"L\":[{\"N\":\"1\"}]}}");

    private static Map<String, AttributeValue> item(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return AttributeValues.decodeMap(JsonTree.parseObject(b, 0, b.length), 0);
    }

    @Test
    void expressionParsers() {
        List<byte[]> corpus = new ArrayList<>();
        Corpus.load("expressions").forEach(e -> corpus.add(e.bytes()));
        FuzzRun run = new FuzzRun("expressions", SEED);
        ExpressionKind[] kinds = ExpressionKind.values();
        for (int i = 0; i < EXPRESSION_CASES; i++) {
            SplittableRandom r = run.random(i);
            String line = new String(corpus.get(r.nextInt(corpus.size())), StandardCharsets.UTF_8).strip();
            int tab = line.indexOf('\t');
            ExpressionKind kind =
                    r.nextInt(4) == 0 ? kinds[r.nextInt(kinds.length)] : ExpressionKind.valueOf(line.substring(0, tab));
            String text = switch (r.nextInt(3)) {
                case 0 -> r.nextBoolean() ? randomTokens(r) : ExpressionGen.of(r, kind);
                default ->
                    new String(
                            ByteMutations.mutate(
                                    r,
                                    ByteMutations.b(
                                            r.nextBoolean() ? line.substring(tab + 1) : ExpressionGen.of(r, kind)),
                                    ByteMutations.b(randomTokens(r))),
                            StandardCharsets.UTF_8);
            };
            Map<String, String> names = subset(r, NAMES, text);
            Map<String, AttributeValue> values = subset(r, VALUES, text);
            byte[] input = (kind + "\t" + text + "\t" + (names == null ? "-" : names.keySet()) + "\t"
                            + (values == null ? "-" : values.keySet()))
                    .getBytes(StandardCharsets.UTF_8);
            run.check(i, input, in -> parseAndEvaluate(kind, text, names, values));
        }
        run.finish();
    }

    private static String randomTokens(SplittableRandom r) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(r.nextInt(10) == 0 ? 1500 : 25);
        for (int i = 0; i < n; i++) {
            b.append(EXPRESSION_TOKENS.get(r.nextInt(EXPRESSION_TOKENS.size()))).append(r.nextBoolean() ? " " : "");
        }
        return b.toString();
    }

    /** Mostly the placeholders text uses (so that parsing gets past "unused" checks), sometimes others. */
    private static <V> Map<String, V> subset(SplittableRandom r, Map<String, V> all, String text) {
        Map<String, V> out = new LinkedHashMap<>();
        new TreeSet<>(all.keySet()).forEach(k -> {
            if (text.contains(k) ? r.nextInt(10) != 0 : r.nextInt(10) == 0) {
                out.put(k, all.get(k));
            }
        });
        return out.isEmpty() && r.nextInt(5) != 0 ? null : out;
    }

    /** Parses text as kind, then uses it the way an operation would. */
    private static void parseAndEvaluate(
            ExpressionKind kind, String text, Map<String, String> names, Map<String, AttributeValue> values) {
        RequestExpressions.Builder b = RequestExpressions.builder()
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .keyAttributeNames(List.of("PK", "SK"));
        switch (kind) {
            case CONDITION -> b.conditionExpression(text);
            case FILTER -> b.filterExpression(text);
            case SEARCH_CONDITION -> b.searchConditionExpression(text);
            case KEY_CONDITION -> b.keyConditionExpression(text);
            case PROJECTION -> b.projectionExpression(text);
            case UPDATE -> b.updateExpression(text);
        }
        RequestExpressions e = b.build();
        switch (kind) {
            case CONDITION -> e.testCondition(ITEM);
            case FILTER, SEARCH_CONDITION -> e.testFilter(ITEM);
            case KEY_CONDITION -> e.keyCondition(List.of("PK"), List.of("SK"));
            case PROJECTION -> e.project(ITEM);
            case UPDATE -> e.applyUpdate(ITEM);
        }
    }

    static List<String> dictionary(List<byte[]> corpus) {
        TreeSet<String> keys = new TreeSet<>(List.of("S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"));
        for (byte[] b : corpus) {
            TreeMutations.keys(JsonTree.parseObject(b, 0, b.length), keys);
        }
        return new ArrayList<>(keys);
    }
}
