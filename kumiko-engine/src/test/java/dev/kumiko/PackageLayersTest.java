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
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module's packages form a stack: no package imports one that imports it back, directly or
 * around a longer loop, so a loop anywhere in Kumiko's main code fails the build. Every package is
 * one node, a module's root package too. The engine's and the server's packages also stand in the
 * layers that docs/architecture.md lists: a package imports only packages of its own layer or
 * below, and a new package has to be given its layer here.
 *
 * <p>The test reads the sources of every module that the root pom lists (kumiko-engine runs it,
 * being built first), as text: an import or a qualified name of a class of Kumiko's main code is an
 * arrow.
 */
class PackageLayersTest {
    /** The repository's root, seen from the module whose tests run (kumiko-engine). */
    private static final Path ROOT = Path.of("..");

    private static final Pattern MODULE = Pattern.compile("<module>([\\w.-]+)</module>");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(dev\\.kumiko(?:\\.[a-z]\\w*)+)\\.([A-Z]\\w*)");

    /**
     * kumiko-engine's layers, top first (docs/architecture.md, "Package layers of the engine"); names
     * under {@code dev.kumiko.}, a trailing {@code .*} takes the sub-packages too.
     */
    static final List<List<String>> ENGINE_LAYERS = List.of(
            List.of("engine", "engine.admin", "partiql"),
            List.of(
                    "engine.backup",
                    "engine.exchange",
                    "engine.ttl",
                    "engine.txn",
                    "engine.read",
                    "engine.item",
                    "engine.control",
                    "engine.vector",
                    "engine.replication",
                    "engine.kinesis"),
            List.of(
                    "engine.throughput",
                    "engine.insights",
                    "engine.capacity",
                    "engine.index",
                    "engine.streams",
                    "engine.changelog"),
            List.of("engine.check", "engine.failure"),
            List.of("engine.background"),
            List.of("catalog", "codec", "expr", "keys"),
            List.of("error", "model", "storage", "storage.*", "engine.base"));

    /** kumiko-server's layers, top first (docs/architecture.md, "Package layers of the server"). */
    static final List<List<String>> SERVER_LAYERS = List.of(
            List.of("tools.*", "server.cli"),
            List.of("server.console", "server.metrics", "server.http", "server.replication", "server.kinesis"),
            List.of("server.protocol"),
            List.of("server.exchange", "server.policy"),
            List.of("server.auth"),
            List.of("server.json", "server"));

    @Test
    void everyModuleOfTheBuildIsRead() throws IOException {
        assertThat(modules().keySet())
                .contains("kumiko-engine", "kumiko-rocksdb", "kumiko-ignite", "kumiko-server", "kumiko-junit");
    }

    @Test
    void noPackageImportsOneThatImportsItBack() throws IOException {
        Map<String, Set<String>> graph = graph(sources());
        Map<String, List<Set<String>>> loopsByModule = new LinkedHashMap<>();
        for (Map.Entry<String, Set<String>> module : modules().entrySet()) {
            Map<String, Set<String>> own = new LinkedHashMap<>();
            module.getValue().forEach(p -> own.put(p, graph.getOrDefault(p, Set.of())));
            loopsByModule.put(module.getKey(), loops(own));
        }
        loopsByModule.values().removeIf(List::isEmpty);
        assertThat(loopsByModule).as("package loops, by module").isEmpty();
    }

    @Test
    void enginePackagesImportNoLayerAboveTheirOwn() throws IOException {
        assertThat(arrowsUp(ENGINE_LAYERS))
                .as("engine arrows that run up a layer")
                .isEmpty();
    }

    @Test
    void serverPackagesImportNoLayerAboveTheirOwn() throws IOException {
        assertThat(arrowsUp(SERVER_LAYERS))
                .as("server arrows that run up a layer")
                .isEmpty();
    }

    @Test
    void everyEngineAndServerPackageHasALayer() throws IOException {
        Map<String, Set<String>> modules = modules();
        Set<String> unplaced = new TreeSet<>();
        modules.get("kumiko-engine").stream()
                .filter(p -> layer(p, ENGINE_LAYERS) < 0)
                .forEach(unplaced::add);
        modules.get("kumiko-server").stream()
                .filter(p -> layer(p, SERVER_LAYERS) < 0)
                .forEach(unplaced::add);
        assertThat(unplaced).as("packages in no layer").isEmpty();
    }

    /** "package -> package (class)" for every arrow from a layer to one above it. */
    private static List<String> arrowsUp(List<List<String>> layers) throws IOException {
        Map<String, String> sources = sources();
        List<String> out = new ArrayList<>();
        sources.forEach((node, code) -> {
            String from = packageOf(node);
            int own = layer(from, layers);
            for (String to : targets(code, sources.keySet())) {
                int target = layer(to, layers);
                if (own >= 0 && target >= 0 && target < own) {
                    out.add(from + " -> " + to + " (" + node + ")");
                }
            }
        });
        return out;
    }

    /** The index of the layer that holds pkg, top = 0; -1 if none does. */
    private static int layer(String pkg, List<List<String>> layers) {
        for (int i = 0; i < layers.size(); i++) {
            for (String name : layers.get(i)) {
                String full = "dev.kumiko." + name;
                if (full.equals(pkg) || (full.endsWith(".*") && pkg.startsWith(full.substring(0, full.length() - 1)))) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** The packages of each module's main code, by the module's directory, as the root pom lists them. */
    private static Map<String, Set<String>> modules() throws IOException {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) {
            Path main = ROOT.resolve(m.group(1)).resolve("src/main/java");
            if (Files.isDirectory(main)) {
                Set<String> packages = new TreeSet<>();
                classes(main).keySet().forEach(c -> packages.add(packageOf(c)));
                out.put(Path.of(m.group(1)).getFileName().toString(), packages);
            }
        }
        return out;
    }

    /** Source text by "package.Class", for the main code of every module. */
    private static Map<String, String> sources() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) {
            Path main = ROOT.resolve(m.group(1)).resolve("src/main/java");
            if (Files.isDirectory(main)) {
                out.putAll(classes(main));
            }
        }
        return out;
    }

    private static Map<String, String> classes(Path sourceRoot) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
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

    /** Package -> the other packages its classes name. */
    private static Map<String, Set<String>> graph(Map<String, String> sources) {
        Map<String, Set<String>> graph = new LinkedHashMap<>();
        sources.forEach((node, code) -> graph.computeIfAbsent(packageOf(node), n -> new LinkedHashSet<>())
                .addAll(targets(code, sources.keySet())));
        graph.forEach((n, targets) -> targets.remove(n));
        return graph;
    }

    private static String packageOf(String qualifiedClass) {
        return qualifiedClass.substring(0, qualifiedClass.lastIndexOf('.'));
    }

    /** The packages a class names in imports or qualified references (only classes of Kumiko's main code). */
    private static Set<String> targets(String code, Set<String> knownClasses) {
        String text = code.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
        Set<String> out = new LinkedHashSet<>();
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
            String target = m.group(1) + "." + m.group(2);
            if (knownClasses.contains(target)) {
                out.add(packageOf(target));
            }
        }
        return out;
    }

    /** The strongly connected components of more than one node (Tarjan); arrows leaving graph are not followed. */
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

    private static void visit(
            String v,
            Map<String, Set<String>> graph,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!graph.containsKey(w)) {
                continue;
            }
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
