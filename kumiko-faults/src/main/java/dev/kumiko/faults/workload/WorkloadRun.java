package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs a workload from many threads against several servers for a bounded time, then its final
 * reads. Each thread is a process of the history until one of its operations has an unknown outcome;
 * it then goes on as a new process (that operation may still be in flight, and a process has one
 * operation open at a time).
 */
public final class WorkloadRun {
    /** Final reads' processes start here, far above the workers' (thread + k * threads). */
    private static final int FINAL_PROCESS = 1_500_000_000;

    private static final long ERROR_PAUSE_MILLIS = 100;
    /** A bound on one run, whatever its options say. */
    public static final long SECONDS_MAX = 24 * 3600;

    public record Options(
            List<URI> endpoints, int threads, long seconds, long callTimeoutMillis, long finalSeconds, long seed) {
        public Options {
            if (endpoints.isEmpty() || threads < 1 || threads > 256) {
                throw new IllegalArgumentException("one or more endpoints and 1-256 threads");
            }
            if (seconds < 1 || seconds > SECONDS_MAX || finalSeconds < 1 || finalSeconds > SECONDS_MAX) {
                throw new IllegalArgumentException("seconds and final seconds in 1-" + SECONDS_MAX);
            }
            if (callTimeoutMillis < 100 || callTimeoutMillis > 120_000) {
                throw new IllegalArgumentException("call timeout in 100-120000 ms");
            }
        }
    }

    private WorkloadRun() {}

    public static void run(Workload workload, Options options, Recorder recorder) throws InterruptedException {
        List<DynamoDbClient> clients = new ArrayList<>();
        for (URI endpoint : options.endpoints()) {
            clients.add(Clients.of(endpoint, options.callTimeoutMillis()));
        }
        try {
            setUp(workload, clients, recorder, options);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.seconds());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < options.threads(); t++) {
                int thread = t;
                Random random = new Random(options.seed() * 1_000_003L + t);
                Thread worker = new Thread(
                        () -> work(workload, clients, random, recorder, thread, options.threads(), deadline),
                        "workload-" + t);
                worker.start();
                threads.add(worker);
            }
            for (Thread t : threads) {
                t.join();
            }
            finish(workload, clients, recorder, options);
        } finally {
            for (DynamoDbClient c : clients) {
                c.close();
            }
        }
    }

    /** Set up through the first server that answers, within the final-read bound. */
    private static void setUp(Workload workload, List<DynamoDbClient> clients, Recorder recorder, Options options)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.finalSeconds());
        for (int attempt = 0; ; attempt++) {
            try {
                workload.setUp(clients.get(attempt % clients.size()), recorder);
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    private static void work(
            Workload workload,
            List<DynamoDbClient> clients,
            Random random,
            Recorder recorder,
            int thread,
            int threads,
            long deadline) {
        int process = thread;
        while (System.nanoTime() < deadline && !recorder.full()) {
            DynamoDbClient client = clients.get(random.nextInt(clients.size()));
            EventType outcome = workload.step(process, client, random, recorder);
            if (outcome == EventType.INFO) {
                process += threads;
            }
            if (outcome != EventType.OK) {
                pause(); // a server down or paused: no need to fill the history with its refusals
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(ERROR_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void finish(Workload workload, List<DynamoDbClient> clients, Recorder recorder, Options options)
            throws InterruptedException {
        long start = System.nanoTime();
        long share = TimeUnit.SECONDS.toNanos(options.finalSeconds()) / clients.size();
        // Each server in turn reads everything: what one acknowledged, the other must show too. Each
        // has its share of the time, so a server that does not come back cannot use up the others'.
        int process = FINAL_PROCESS;
        for (int i = 0; i < clients.size(); i++) {
            workload.finish(process, clients.get(i), recorder, start + (i + 1) * share);
            process += 10_000_000;
        }
    }
}
