package dev.kumiko.server;

/**
 * Every limit the server puts on what one client may send, in one place (docs/security.md, "Limits
 * on client input"). With these, one connection costs bounded memory and time however it behaves:
 * at most one request body plus one decompression buffer, and a deadline on every request.
 *
 * <p>The constants are fixed by the wire format; the record's components can be lowered (tests,
 * embedded use). DynamoDB's own documented limits (item size, 32 levels of attribute nesting, 4 KB
 * expressions) are enforced with DynamoDB's errors where they are defined: {@code AttributeValues},
 * {@code ExpressionParser}, the engine.
 *
 * @param requestBytesMax a request body, after decompression
 * @param requestTimeoutMillis from the first byte of a request to its last; a client that sends
 *     slower (slowloris) or stops half-way (half-open) is disconnected
 * @param idleTimeoutMillis a keep-alive connection with no request and no response in flight
 * @param connectionsMax open client connections; one more is closed at once
 * @param inFlightBytesMax request bodies held at once across every connection, from the moment a
 *     body's length is known until its request is answered; a request past it is answered 503
 *     ServiceUnavailable (one request is always let in when none is in flight, however large)
 */
public record ServerLimits(
        int requestBytesMax,
        long requestTimeoutMillis,
        long idleTimeoutMillis,
        int connectionsMax,
        long inFlightBytesMax) {
    /** DynamoDB's largest request (BatchWriteItem, 16 MB of items) plus room for JSON overhead. */
    public static final int REQUEST_BYTES_MAX_DEFAULT = 16 * 1024 * 1024 + 64 * 1024;
    /**
     * Generous for a local server: a 16 MB request at 300 KB/s still fits, and no SDK sends a
     * request slower than that; a stalled request holds its buffer this long at most.
     */
    public static final long REQUEST_TIMEOUT_MILLIS_DEFAULT = 60_000;
    /**
     * Above every SDK's own pool idle time (Java v2 Apache client 60 s, Go 90 s, HttpURLConnection
     * 5 s), so the client, not the server, retires a pooled connection.
     */
    public static final long IDLE_TIMEOUT_MILLIS_DEFAULT = 300_000;
    /** Far above any test or local workload, below common open-file limits of servers. */
    public static final int CONNECTIONS_MAX_DEFAULT = 10_000;

    /**
     * The default bound of request bytes in flight is the heap divided by this (64 MiB of a 1 GiB
     * heap, four of DynamoDB's largest requests). A body being answered is held about three times
     * over (its bytes, its parsed form, the items encoded for the store), and the memory store may
     * take half the heap ({@code MemoryStore.HEAP_PERCENT_DEFAULT}): bodies at a sixteenth keep the
     * worst case near 70 % of the heap, with room for the collector. Without a bound, 10,000
     * connections each sending a 16 MB body would hold 160 GB.
     */
    public static final int IN_FLIGHT_HEAP_DIVISOR = 16;

    /** "POST / HTTP/1.1": DynamoDB's path is "/"; a longer line is refused. */
    public static final int INITIAL_LINE_BYTES_MAX = 4096;
    /** All request headers together; a SigV4 request with a session token needs about 2 KB. */
    public static final int HEADER_BYTES_MAX = 16 * 1024;
    /** Largest body piece decoded at once; bounds the decompressor's input per step. */
    public static final int CHUNK_BYTES_MAX = 64 * 1024;

    /**
     * JSON nesting depth. A valid request nests at most about 70 deep (32 levels of M/L take two JSON
     * levels each, plus the request's own structure), so 200 admits all of them and lets the
     * attribute validator answer "Nesting Levels have exceeded supported limits" for 33..~80 levels.
     */
    public static final int JSON_DEPTH_MAX = 200;
    /** JSON number token (Limit, Segment, ...): DynamoDB numbers travel as strings, so this is loose. */
    public static final int JSON_NUMBER_CHARS_MAX = 1024;
    /** A JSON string; the body limit bounds it anyway, this bounds the parser's buffer. */
    public static final int JSON_STRING_CHARS_MAX = REQUEST_BYTES_MAX_DEFAULT;
    /**
     * A JSON member name. Attribute names may be 64 KB (DynamoDB's documented limit), which Jackson's
     * default (50,000 chars) would refuse before the engine could answer with DynamoDB's error.
     */
    public static final int JSON_NAME_CHARS_MAX = 1024 * 1024;

    public static final ServerLimits DEFAULTS = new ServerLimits(
            REQUEST_BYTES_MAX_DEFAULT,
            REQUEST_TIMEOUT_MILLIS_DEFAULT,
            IDLE_TIMEOUT_MILLIS_DEFAULT,
            CONNECTIONS_MAX_DEFAULT,
            inFlightBytesMaxDefault());

    public ServerLimits {
        if (requestBytesMax <= 0
                || requestTimeoutMillis <= 0
                || idleTimeoutMillis <= 0
                || connectionsMax <= 0
                || inFlightBytesMax <= 0) {
            throw new IllegalArgumentException(
                    "server limits must be positive: " + requestBytesMax + ", " + requestTimeoutMillis + ", "
                            + idleTimeoutMillis + ", " + connectionsMax + ", " + inFlightBytesMax);
        }
    }

    /** The heap this JVM may take, divided by {@link #IN_FLIGHT_HEAP_DIVISOR}. */
    public static long inFlightBytesMaxDefault() {
        return Runtime.getRuntime().maxMemory() / IN_FLIGHT_HEAP_DIVISOR;
    }

    public ServerLimits withInFlightBytesMax(long inFlightBytesMax) {
        return new ServerLimits(
                requestBytesMax, requestTimeoutMillis, idleTimeoutMillis, connectionsMax, inFlightBytesMax);
    }

    public ServerLimits withTimeouts(long requestTimeoutMillis, long idleTimeoutMillis) {
        return new ServerLimits(
                requestBytesMax, requestTimeoutMillis, idleTimeoutMillis, connectionsMax, inFlightBytesMax);
    }

    public ServerLimits withConnectionsMax(int connectionsMax) {
        return new ServerLimits(
                requestBytesMax, requestTimeoutMillis, idleTimeoutMillis, connectionsMax, inFlightBytesMax);
    }

    public ServerLimits withRequestBytesMax(int requestBytesMax) {
        return new ServerLimits(
                requestBytesMax, requestTimeoutMillis, idleTimeoutMillis, connectionsMax, inFlightBytesMax);
    }
}
