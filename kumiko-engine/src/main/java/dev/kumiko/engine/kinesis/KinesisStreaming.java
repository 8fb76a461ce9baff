package dev.kumiko.engine.kinesis;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.storage.Store;
import org.jspecify.annotations.Nullable;

/**
 * Kinesis streaming destinations of one engine: the operations, and the thread that ships once the
 * server {@link #configure}d a {@link KinesisLink} (its {@code --kinesis-endpoint}). An engine never
 * configured answers EnableKinesisStreamingDestination with a ValidationException and ships nothing.
 */
public final class KinesisStreaming implements AutoCloseable {
    /** How long the thread rests when there was nothing to ship. */
    static final long IDLE_MILLIS = 200;
    /** How long it rests after a step failed unexpectedly. */
    static final long ERROR_REST_MILLIS = 1_000;

    private final KinesisShipper shipper;
    private final KinesisDestinationOperations operations;
    private volatile @Nullable KinesisLink link;
    private @Nullable Thread thread; // under this

    public KinesisStreaming(Store store, Catalog catalog, ChangeLog log, Clock clock, String owner) {
        this.shipper = new KinesisShipper(
                catalog, log, new KinesisPositions(store), clock, new Lease(store, "kinesis-ship", owner, clock));
        this.operations = new KinesisDestinationOperations(catalog, log, clock, new Configured());
    }

    /** Whether a link is set: a class, not a lambda, since it is made at every engine's open (see Clock.SYSTEM). */
    private final class Configured implements java.util.function.BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            return link != null;
        }
    }

    public KinesisDestinationOperations operations() {
        return operations;
    }

    /** Ships through kinesisLink from now on (once; a later call replaces the link). */
    public synchronized void configure(KinesisLink kinesisLink) {
        this.link = kinesisLink;
        if (thread == null) {
            Thread t = new Thread(this::ship, "kumiko-kinesis-ship");
            t.setDaemon(true);
            t.start();
            thread = t;
        }
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            shipper.release();
        }
    }

    private void ship() {
        while (!Thread.currentThread().isInterrupted()) {
            boolean busy;
            try {
                KinesisLink l = link;
                busy = l != null && shipper.step(l);
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                System.getLogger(KinesisStreaming.class.getName())
                        .log(System.Logger.Level.WARNING, "Kinesis shipping step failed; it runs again in a second", e);
                if (!rest(ERROR_REST_MILLIS)) {
                    return;
                }
                continue;
            }
            if (!busy && !rest(IDLE_MILLIS)) {
                return;
            }
        }
    }

    /** Sleeps; false when interrupted (the engine closes). */
    private static boolean rest(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }
}
