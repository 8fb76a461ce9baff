package dev.kumiko.server.exchange;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A local directory standing in for a bucket: an object's key is its path below the directory
 * ("/" separated). Files are written under a temporary name and moved into place, so a reader never
 * sees half a file.
 */
final class DirectoryTarget implements ExchangeTarget {
    private final Path root;

    DirectoryTarget(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        Path file = resolve(key);
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public byte[] get(String key) throws IOException {
        return Files.readAllBytes(resolve(key));
    }

    @Override
    public List<String> list(String prefix, int limit) throws IOException {
        List<String> keys = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString());
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(k -> k.startsWith(prefix) && !k.endsWith(".tmp"))
                    .sorted()
                    .limit(limit)
                    .forEach(keys::add);
        }
        return keys;
    }

    /** The key's file, refusing keys that would leave the directory ("../"). */
    private Path resolve(String key) throws IOException {
        Path file = root.resolve(key).normalize();
        if (!file.startsWith(root) || file.equals(root)) {
            throw new IOException("key " + key + " is outside " + root);
        }
        return file;
    }
}
