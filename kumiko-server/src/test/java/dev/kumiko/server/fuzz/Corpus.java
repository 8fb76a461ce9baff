package dev.kumiko.server.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The saved inputs of a target, from src/test/resources/fuzz/corpus/&lt;target&gt;/: seeds (valid
 * inputs to mutate) and regression cases (inputs that once found a bug), in file-name order.
 */
final class Corpus {
    record Entry(String name, byte[] bytes) {}

    private Corpus() {}

    static List<Entry> load(String target) {
        URL url = Corpus.class.getResource("/fuzz/corpus/" + target);
        if (url == null) {
            throw new IllegalStateException("no corpus for " + target);
        }
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            List<Entry> out = new ArrayList<>();
            for (Path p : files.sorted().toList()) {
                out.add(new Entry(p.getFileName().toString(), Files.readAllBytes(p)));
            }
            assert !out.isEmpty();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
