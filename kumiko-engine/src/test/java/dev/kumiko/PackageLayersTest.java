package dev.kumiko;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine module's packages form a stack: no package imports one that imports it back, directly
 * or around a longer loop, so a loop fails the build. Every package is one node, the engine's root
 * ({@code Engine}) too: the base types every layer uses live below, in {@code engine.base}.
 * docs/architecture.md lists the layers.
 */
class PackageLayersTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(dev\\.kumiko(?:\\.[a-z]\\w*)+)\\.([A-Z]\\w*)");

    @Test
    void noEnginePackageImportsOneThatImportsItBack() throws IOException {
        Map<String, String> sources = sources();
        Map<String, Set<String>> graph = new LinkedHashMap<>();
        sources.forEach((node, code) -> graph.computeIfAbsent(packageOf(node), n -> new LinkedHashSet<>())
                .addAll(targets(node, code, sources.keySet())));
        graph.forEach((n, targets) -> targets.remove(n));
        assertThat(loops(graph)).as("package loops").isEmpty();
    }

    /** Source text by "package.Class". */
    private static Map<String, String> sources() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String code = Files.readString(p);
                Matcher m = PACKAGE.matcher(code);
                if (m.find()) {
                    String name = p.getFileName().toString().replace(".java", "");
                    out.put(m.group(1) + "." + name, code);
                }
            }
        }
        return out;
    }

    private static String packageOf(String qualifiedClass) {
        return qualifiedClass.substring(0, qualifiedClass.lastIndexOf('.'));
    }

    /** The packages a class names in imports or qualified references (only classes of this module). */
    private static Set<String> targets(String qualifiedClass, String code, Set<String> moduleClasses) {
        String text = code.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
        Set<String> out = new LinkedHashSet<>();
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
            String target = m.group(1) + "." + m.group(2);
            if (moduleClasses.contains(target)) {
                out.add(packageOf(target));
            }
        }
        return out;
    }

    /** The strongly connected components of more than one node (Tarjan). */
    private static List<Set<String>> loops(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new LinkedHashSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                visit(v, graph, index, low, stack, onStack, out);
            }
        }
        return out;
    }

    private static void visit(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                visit(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new LinkedHashSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }
}
