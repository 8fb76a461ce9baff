package dev.kumiko.server.cli;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * What {@code kumiko serve} checks before it opens anything, so that a start that cannot succeed
 * fails with one line that names the port, the path or the lock holder and says what to do, and
 * leaves nothing behind (a taken port must not have created the data directory).
 */
final class StartupChecks {
    static final int PORT_MAX = 65_535;
    /** RocksDB's lock file in a data directory; the process that holds a POSIX lock on it owns the store. */
    static final String ROCKSDB_LOCK_FILE = "LOCK";

    private static final Path PROC_LOCKS = Path.of("/proc/locks");

    private StartupChecks() {}

    /** A bad option or an unusable environment: one line on stderr, then exit with {@link #exitCode}. */
    static final class Failure extends Exception {
        final int exitCode;

        Failure(int exitCode, String message) {
            super(message, null, false, false);
            this.exitCode = exitCode;
        }
    }

    /** Exit code of an invalid option (as picocli's usage errors). */
    static final int EXIT_USAGE = 2;
    /** Exit code of a valid option the machine cannot honour now (a taken port, a locked directory). */
    static final int EXIT_UNAVAILABLE = 1;

    static void checkPort(int port) throws Failure {
        if (port < 0 || port > PORT_MAX) {
            throw new Failure(
                    EXIT_USAGE, "--port " + port + " is out of range: use 1-" + PORT_MAX + ", or 0 for any free port");
        }
    }

    /**
     * Binds the port and lets it go again, so a taken port is reported before the data directory is
     * opened. The server binds again moments later; losing that race is reported by {@link #bindFailure}.
     * The probe is a NIO channel, as Netty's listening socket is: it loads the classes the server's
     * bind needs anyway (a {@code java.net.ServerSocket} would load its own, about 10 ms of a start)
     * and fails with the same exceptions.
     */
    static void checkPortFree(String host, int port) throws Failure {
        if (port == 0) {
            return;
        }
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            throw bindFailure(host, port, e);
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            // A NIO channel's UnresolvedAddressException (an IllegalArgumentException) has no message.
            String reason = e instanceof UnresolvedAddressException ? "Unresolved address" : e.getMessage();
            throw new Failure(
                    EXIT_UNAVAILABLE, "cannot listen on " + host + ":" + port + ": " + reason + "; check --host");
        }
    }

    static Failure bindFailure(String host, int port, Exception e) {
        String reason = String.valueOf(e.getMessage());
        if (reason.contains("in use")) {
            return new Failure(
                    EXIT_UNAVAILABLE,
                    "port " + port + " on " + host + " is already in use (another "
                            + "Kumiko or DynamoDB Local?): stop that process or choose another port, e.g. --port "
                            + (port == PORT_MAX ? port - 1 : port + 1) + " (or --port 0 for any free port)");
        }
        return new Failure(
                EXIT_UNAVAILABLE,
                "cannot listen on " + host + ":" + port + ": " + reason
                        + (port < 1024
                                ? "; ports below 1024 need privileges, choose e.g. --port 8000"
                                : "; check --host"));
    }

    /** The data directory exists and is writable, or can be created; and no other process holds it. */
    static void checkDataDir(Path dir) throws Failure {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.exists(abs) && !Files.isDirectory(abs)) {
            throw new Failure(
                    EXIT_USAGE,
                    "data directory " + abs + " is a file, not a directory: " + "choose another with --data-dir");
        }
        if (Files.isDirectory(abs)) {
            if (!Files.isWritable(abs)) {
                throw new Failure(
                        EXIT_UNAVAILABLE,
                        "data directory " + abs + " is not writable by this user: "
                                + "fix its permissions or choose another with --data-dir (or use --in-memory)");
            }
            checkNotLocked(abs);
            return;
        }
        Path ancestor = existingAncestor(abs);
        if (ancestor == null || !Files.isDirectory(ancestor) || !Files.isWritable(ancestor)) {
            throw new Failure(
                    EXIT_UNAVAILABLE,
                    "cannot create data directory " + abs + ": " + ancestor
                            + " is not a writable directory; choose another with --data-dir (or use --in-memory)");
        }
    }

    private static Path existingAncestor(Path abs) {
        Path p = abs.getParent();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p;
    }

    /**
     * RocksDB takes a POSIX (fcntl) lock on {@code LOCK}; FileChannel.tryLock is the same kind of lock
     * on Linux and macOS, so it fails exactly when another process has the store open.
     */
    private static void checkNotLocked(Path dir) throws Failure {
        String holder = lockedBy(dir);
        if (holder != null) {
            throw new Failure(
                    EXIT_UNAVAILABLE,
                    "data directory " + dir + " is in use by " + holder
                            + ": stop it, or choose another --data-dir (or use --in-memory)");
        }
    }

    /** Who has the RocksDB store in dir open ("process 1234 (...)"), or null when nobody does. */
    static String lockedBy(Path dir) throws Failure {
        Path lockFile = dir.resolve(ROCKSDB_LOCK_FILE);
        if (!Files.isRegularFile(lockFile)) {
            return null;
        }
        boolean held;
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            held = lock == null;
            if (lock != null) {
                lock.release();
            }
        } catch (OverlappingFileLockException e) {
            held = true; // this very JVM has it open (an embedded server)
        } catch (IOException e) {
            throw new Failure(
                    EXIT_UNAVAILABLE,
                    "cannot open " + lockFile + ": " + e.getMessage()
                            + "; fix its permissions or choose another --data-dir");
        }
        return held ? lockHolder(lockFile) : null;
    }

    /** "process 1234 (java ... kumiko serve)" from /proc/locks where the platform has it, else "another process". */
    static String lockHolder(Path lockFile) {
        try {
            Object inode = Files.getAttribute(lockFile, "unix:ino");
            List<String> locks = Files.readAllLines(PROC_LOCKS);
            for (String line : locks) {
                // "1: POSIX  ADVISORY  WRITE 4242 08:01:1234567 0 EOF": pid, then major:minor:inode.
                String[] f = line.trim().split("\\s+");
                if (f.length >= 6 && f[5].endsWith(":" + inode)) {
                    return "process " + f[4] + commandLine(f[4]);
                }
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // not Linux, or /proc unreadable: the holder stays unnamed
        }
        return "another process";
    }

    private static String commandLine(String pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", pid, "cmdline"));
            String cmd = new String(raw, java.nio.charset.StandardCharsets.UTF_8)
                    .replace('\0', ' ')
                    .strip();
            return cmd.isEmpty() ? "" : " (" + abbreviate(cmd) + ")";
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException | SecurityException e) {
            return "";
        }
    }

    private static final int COMMAND_CHARS_MAX = 80;

    private static String abbreviate(String cmd) {
        return cmd.length() <= COMMAND_CHARS_MAX ? cmd : cmd.substring(0, COMMAND_CHARS_MAX - 3) + "...";
    }
}
