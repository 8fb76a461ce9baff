package dev.kumiko.server.cli;

import dev.kumiko.server.protocol.OperationTable;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.nio.NioEventLoopGroup;
import java.lang.invoke.MethodHandles;

/**
 * Initializes, on a second thread, the classes that {@code serve} needs once the engine is open,
 * while the main thread opens the store and the engine. A start is mostly class loading and static
 * initialization on one thread; these three were about a third of the main thread's CPU (Micrometer's
 * and the Prometheus registry's, about 16 %; the operation table, built in a static initializer,
 * 12 %; Netty's event loops, 7 %), and none of them needs the engine.
 *
 * <p>The JVM runs a class's static initializer once, on whichever thread asks first; a second thread
 * that asks meanwhile waits for it to finish. So the main thread either finds a class ready, waits
 * for the rest of its initialization, or initializes it itself if this thread has not got there
 * yet: the start's outcome is the same in each case, only its length differs. The classes are
 * listed in the order the main thread needs them.
 */
final class StartupPrefetch implements Runnable {
    private static final Class<?>[] CLASSES = {
        PrometheusMeterRegistry.class, NioEventLoopGroup.class, OperationTable.class,
    };

    private StartupPrefetch() {}

    /**
     * Starts the thread. A daemon: a start that fails its checks exits without waiting for it.
     * A {@code Runnable} class, not a lambda: the first lambda of a JVM costs about 10 ms to link,
     * which would fall on the main thread here.
     */
    static void start() {
        Thread thread = new Thread(new StartupPrefetch(), "kumiko-start-prefetch");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (Class<?> c : CLASSES) {
            try {
                lookup.ensureInitialized(c);
            } catch (IllegalAccessException | RuntimeException | Error e) {
                // A class that fails to initialize here fails the main thread's start too, with only
                // "Could not initialize class" in JDK 17: this trace is where its cause is.
                e.printStackTrace();
                return;
            }
        }
    }
}
