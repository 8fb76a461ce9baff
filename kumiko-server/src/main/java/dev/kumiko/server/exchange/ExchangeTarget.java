package dev.kumiko.server.exchange;

import java.io.IOException;
import java.util.List;

/** Where export files go and import files come from: an S3 bucket or a local directory. */
interface ExchangeTarget {
    /** Writes one object (a file), replacing any there. */
    void put(String key, byte[] bytes) throws IOException;

    /** One object's bytes; FileNotFound-style IOException when there is none. */
    byte[] get(String key) throws IOException;

    /** Keys under prefix, in key order, at most {@code limit}. */
    List<String> list(String prefix, int limit) throws IOException;
}
