package dev.kumiko.embedded;

import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The SDK clients one {@link Kumiko} hands out: each made on first use, all closed together. */
final class SdkClients implements AutoCloseable {
    private final Kumiko kumiko;
    private @Nullable DynamoDbClient sync;
    private @Nullable DynamoDbAsyncClient async;
    private @Nullable DynamoDbStreamsClient streams;

    SdkClients(Kumiko kumiko) {
        this.kumiko = kumiko;
    }

    synchronized DynamoDbClient sync() {
        if (sync == null) {
            sync = kumiko.configure(DynamoDbClient.builder()).build();
        }
        return sync;
    }

    synchronized DynamoDbAsyncClient async() {
        if (async == null) {
            async = kumiko.configure(DynamoDbAsyncClient.builder()).build();
        }
        return async;
    }

    synchronized DynamoDbStreamsClient streams() {
        if (streams == null) {
            streams = kumiko.configure(DynamoDbStreamsClient.builder()).build();
        }
        return streams;
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable c : new AutoCloseable[] {sync, async, streams}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // a client that fails to close holds nothing Kumiko needs back
                }
            }
        }
        sync = null;
        async = null;
        streams = null;
    }
}
