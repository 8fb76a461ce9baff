package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.util.Random;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One kind of checked workload. The runner calls {@link #setUp} once, then {@link #step} from many
 * threads until the run's time is up, then {@link #finish} once the faults have healed.
 */
public interface Workload {
    /** Creates the table (if absent) and records what the history starts with. */
    void setUp(DynamoDbClient client, Recorder recorder) throws InterruptedException;

    /** One operation, recorded as an invocation and a completion; its outcome. */
    EventType step(int process, DynamoDbClient client, Random random, Recorder recorder);

    /** Final reads (of every key used), each retried until answered or the deadline passes. */
    void finish(int process, DynamoDbClient client, Recorder recorder, long deadlineNanos) throws InterruptedException;
}
