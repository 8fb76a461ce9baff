package dev.kumiko.server.http;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;

/**
 * The pooled buffers every Kumiko server in this JVM reads requests into and writes answers from:
 * Netty's default pool, except for the size of a chunk, the block an arena takes from the system.
 *
 * <p>Netty's chunk is 4 MiB (8 KiB pages, order 9), and without access to the JDK's internal
 * buffer constructor Netty allocates it zeroed, so a server's first request makes all 4 MiB
 * resident: about 5 % of an idle server's RSS. At order 7 a chunk is 1 MiB. A buffer larger than a
 * chunk is allocated on its own instead of from the pool; with 1 MiB chunks that is a request or
 * an answer above 1 MiB (a full page of Query or Scan results), rare beside the small requests
 * that make up a server's load. {@code -Dio.netty.allocator.maxOrder} still overrides it.
 */
final class BufferPool {
    /** A chunk is {@code pageSize << CHUNK_ORDER}: 8 KiB << 7 = 1 MiB. */
    static final int CHUNK_ORDER = 7;

    static final PooledByteBufAllocator SHARED = new PooledByteBufAllocator(
            PlatformDependent.directBufferPreferred(),
            PooledByteBufAllocator.defaultNumHeapArena(),
            PooledByteBufAllocator.defaultNumDirectArena(),
            PooledByteBufAllocator.defaultPageSize(),
            // Netty's own reading of the property, which checks its range, when one is set.
            System.getProperty("io.netty.allocator.maxOrder") != null
                    ? PooledByteBufAllocator.defaultMaxOrder()
                    : CHUNK_ORDER,
            PooledByteBufAllocator.defaultSmallCacheSize(),
            PooledByteBufAllocator.defaultNormalCacheSize(),
            PooledByteBufAllocator.defaultUseCacheForAllThreads());

    private BufferPool() {}
}
