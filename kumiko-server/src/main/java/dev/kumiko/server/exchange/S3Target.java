package dev.kumiko.server.exchange;

import java.io.IOException;
import java.util.List;

/** One bucket of an S3-compatible server. */
final class S3Target implements ExchangeTarget {
    private final S3Client client;
    private final String bucket;

    S3Target(S3Client client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        client.putObject(bucket, key, bytes);
    }

    @Override
    public byte[] get(String key) throws IOException {
        return client.getObject(bucket, key);
    }

    @Override
    public List<String> list(String prefix, int limit) throws IOException {
        return client.listObjects(bucket, prefix, limit);
    }
}
