package dev.kumiko.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Class-path resources named by a path whose last segment may be a glob ({@code tables/*.json}),
 * from directories (target/test-classes) and jars alike.
 */
final class ClassPathFiles {
    /** A resource's name (for messages) and its text. */
    record Resource(String name, String text) {}

    private ClassPathFiles() {}

    /** Every resource the pattern names, sorted by name; throws if there is none. */
    static List<Resource> read(ClassLoader loader, String pattern) {
        String path = pattern.startsWith("/") ? pattern.substring(1) : pattern;
        int slash = path.lastIndexOf('/');
        String dir = slash < 0 ? "" : path.substring(0, slash);
        String fileGlob = path.substring(slash + 1);
        TreeMap<String, URL> found = new TreeMap<>();
        try {
            if (fileGlob.chars().noneMatch(c -> c == '*' || c == '?' || c == '[' || c == '{')) {
                URL url = loader.getResource(path);
                if (url != null) {
                    found.put(path, url);
                }
            } else {
                PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + fileGlob);
                Enumeration<URL> roots = loader.getResources(dir.isEmpty() ? "." : dir);
                while (roots.hasMoreElements()) {
                    collect(roots.nextElement(), dir, matcher, found);
                }
            }
            if (found.isEmpty()) {
                throw new IllegalStateException("no class-path resource matches \"" + pattern + "\"");
            }
            List<Resource> out = new ArrayList<>();
            for (var e : found.entrySet()) {
                try (InputStream in = e.getValue().openStream()) {
                    out.add(new Resource(e.getKey(), new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("reading class-path resources \"" + pattern + "\"", e);
        }
    }

    private static void collect(URL root, String dir, PathMatcher matcher, Map<String, URL> found) throws IOException {
        String prefix = dir.isEmpty() ? "" : dir + "/";
        if ("file".equals(root.getProtocol())) {
            Path base;
            try {
                base = Path.of(root.toURI());
            } catch (URISyntaxException e) {
                throw new IOException("bad resource URL " + root, e);
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(base)) {
                for (Path f : files) {
                    if (Files.isRegularFile(f) && matcher.matches(f.getFileName())) {
                        found.putIfAbsent(prefix + f.getFileName(), f.toUri().toURL());
                    }
                }
            }
        } else if ("jar".equals(root.getProtocol())) {
            JarURLConnection connection = (JarURLConnection) root.openConnection();
            connection.setUseCaches(false);
            try (JarFile jar = connection.getJarFile()) {
                for (JarEntry entry : java.util.Collections.list(jar.entries())) {
                    String name = entry.getName();
                    if (entry.isDirectory() || !name.startsWith(prefix) || name.indexOf('/', prefix.length()) >= 0) {
                        continue;
                    }
                    if (matcher.matches(Path.of(name.substring(prefix.length())))) {
                        found.putIfAbsent(name, new URL("jar:" + connection.getJarFileURL() + "!/" + name));
                    }
                }
            }
        }
    }
}
