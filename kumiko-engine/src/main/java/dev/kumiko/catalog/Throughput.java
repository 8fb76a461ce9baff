package dev.kumiko.catalog;

/** Provisioned read and write capacity units; zero for on-demand tables. */
public record Throughput(long readCapacityUnits, long writeCapacityUnits) {
    public static final Throughput ZERO = new Throughput(0, 0);
}
