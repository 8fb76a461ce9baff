package dev.kumiko.server.http;

import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.OperationTable;
import io.netty.channel.DefaultChannelId;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Initializes, on a second thread, classes that a server's start needs and the engine does not,
 * while the starting thread opens the store and the engine. The first start in a JVM is mostly
 * class loading and static initialization on one thread: the operation table (its names and
 * registration files; each operation is built at its first lookup), Netty's and the response
 * buffers' pools, the JSON parser, and for {@code serve} its metrics registry.
 *
 * <p>The JVM runs a class's static initializer once, on whichever thread asks first; a second thread
 * that asks meanwhile waits for it to finish. So the starting thread either finds a class ready,
 * waits for the rest of its initialization, or initializes it itself if this thread has not got
 * there yet: the start's outcome is the same in each case, only its length differs.
 */
public final class StartupPrefetch implements Runnable {
    /**
     * What every server start needs after the engine, in the order the server needs it: the
     * operation table before the server starts, the buffer pool and channel ids when it binds, a
     * connection's encoder and decoder and the JSON parser at the first request (which a test
     * usually sends after building its SDK client, time this thread uses). Netty's event loops are
     * not in it: an embedded start needs them right after the engine, before this thread could be
     * done with them, so its own thread initializes them; {@code serve}, whose main thread checks
     * the port and the data directory first, names them among its first classes.
     */
    private static final List<Class<?>> SERVER_CLASSES = List.of(
            OperationTable.class,
            BufferPool.class,
            DefaultChannelId.class,
            AnswerEncoder.class,
            PlainRequestDecoder.class,
            JsonTree.class);
    /** A start names a handful; a long list would mean the prefetch has become a second start. */
    private static final int FIRST_CLASSES_MAX = 8;
    /** Once per JVM: later starts (a test suite starts a server per class) find the classes ready. */
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private final List<Class<?>> classes;

    private StartupPrefetch(List<Class<?>> classes) {
        this.classes = classes;
    }

    /**
     * Starts the thread, only at the first call in the JVM: it initializes {@code first} (what this
     * kind of start needs before the rest, in order), then the server's own classes. A daemon: a
     * start that fails its checks exits without waiting for it. A {@code Runnable} class, not a
     * lambda: the first lambda of a JVM costs about 10 ms to link, which would fall on the
     * starting thread here.
     */
    public static void start(Class<?>... first) {
        if (first.length > FIRST_CLASSES_MAX) {
            throw new IllegalArgumentException("at most " + FIRST_CLASSES_MAX + " classes first, not " + first.length);
        }
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        List<Class<?>> classes = new ArrayList<>(List.of(first));
        classes.addAll(SERVER_CLASSES);
        Thread thread = new Thread(new StartupPrefetch(List.copyOf(classes)), "kumiko-start-prefetch");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (Class<?> c : classes) {
            try {
                lookup.ensureInitialized(c);
            } catch (IllegalAccessException | RuntimeException | Error e) {
                // A class that fails to initialize here fails the starting thread too, with only
                // "Could not initialize class" in JDK 17: this trace is where its cause is.
                e.printStackTrace();
                return;
            }
        }
    }
}
