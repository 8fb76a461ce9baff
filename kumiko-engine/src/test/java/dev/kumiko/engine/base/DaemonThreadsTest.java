package dev.kumiko.engine.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Background work runs on named daemon threads, so an embedding JVM can exit without closing Kumiko. */
class DaemonThreadsTest {
    @Test
    void anExecutorsThreadsAreDaemonsNamedForTheirWork() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor(new DaemonThreads("kumiko-test-work"));
        try {
            Future<Thread> ran = executor.submit(Thread::currentThread);
            Thread t = ran.get(10, TimeUnit.SECONDS);
            assertThat(t.isDaemon()).isTrue();
            assertThat(t.getName()).isEqualTo("kumiko-test-work");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aThreadRunsTheWorkItIsGiven() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new DaemonThreads("kumiko-test-once").newThread(done::countDown);
        t.start();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aThreadNeedsAName() {
        assertThatThrownBy(() -> new DaemonThreads(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a thread needs a name");
        assertThatThrownBy(() -> new DaemonThreads(null)).isInstanceOf(NullPointerException.class);
    }
}
