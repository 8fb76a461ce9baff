package dev.kumiko.engine.vector;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The thread that moves queued writes into the vector indexes. Started by the first write that
 * needs it; it ends after a second without work, so a store nobody writes to holds no thread.
 */
final class VectorApplier {
    /** How long the thread waits without work before it ends. */
    static final long IDLE_MILLIS = 1000;

    private final Runnable drainAll;
    private final Semaphore work = new Semaphore(0);
    private final AtomicBoolean running = new AtomicBoolean();

    VectorApplier(Runnable drainAll) {
        this.drainAll = drainAll;
    }

    void wake() {
        if (work.availablePermits() == 0) {
            work.release();
        }
        if (running.compareAndSet(false, true)) {
            Thread t = new Thread(this::run, "kumiko-vector-apply");
            t.setDaemon(true);
            t.start();
        }
    }

    private void run() {
        try {
            while (true) {
                if (!work.tryAcquire(IDLE_MILLIS, TimeUnit.MILLISECONDS)) {
                    running.set(false);
                    // A write that came after the timeout but before the flag fell started no thread.
                    if (work.availablePermits() == 0 || !running.compareAndSet(false, true)) {
                        return;
                    }
                }
                work.drainPermits();
                drainAll.run();
            }
        } catch (InterruptedException e) {
            running.set(false);
            Thread.currentThread().interrupt();
        }
    }
}
