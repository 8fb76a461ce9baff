package dev.kumiko.engine.vector;

/**
 * A vector index's DistanceFunction, with DynamoDB's score for each: COSINE is 1 - cos (0 for the
 * same direction, 2 for opposite ones), EUCLIDEAN the L2 distance, both lower-is-better;
 * DOT_PRODUCT is the dot product, higher-is-better (API Reference, SearchVectors).
 */
public enum VectorDistance {
    COSINE,
    EUCLIDEAN,
    DOT_PRODUCT;

    /** The score DynamoDB reports for stored vector v against query q (same length). */
    public float score(float[] q, float[] v) {
        assert q.length == v.length;
        return switch (this) {
            case COSINE -> cosineDistance(q, v);
            case EUCLIDEAN -> (float) Math.sqrt(squaredDistance(q, v));
            case DOT_PRODUCT -> dot(q, v);
        };
    }

    /** Whether a higher score means a closer vector (only DOT_PRODUCT). */
    public boolean higherIsCloser() {
        return this == DOT_PRODUCT;
    }

    /** A score turned into an order where smaller is always closer, for heaps and graphs. */
    public float rank(float score) {
        return higherIsCloser() ? -score : score;
    }

    // Four independent sums: the JIT does not reorder a float reduction, so one sum would wait on
    // each addition; four let the CPU overlap them (about 2-3x on 128+ dimensions).
    static float dot(float[] a, float[] b) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (int end = a.length - 3; i < end; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < a.length; i++) {
            s0 += a[i] * b[i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    static float squaredDistance(float[] a, float[] b) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (int end = a.length - 3; i < end; i += 4) {
            float d0 = a[i] - b[i];
            float d1 = a[i + 1] - b[i + 1];
            float d2 = a[i + 2] - b[i + 2];
            float d3 = a[i + 3] - b[i + 3];
            s0 += d0 * d0;
            s1 += d1 * d1;
            s2 += d2 * d2;
            s3 += d3 * d3;
        }
        for (; i < a.length; i++) {
            float d = a[i] - b[i];
            s0 += d * d;
        }
        return (s0 + s1) + (s2 + s3);
    }

    private static float cosineDistance(float[] a, float[] b) {
        float dot = dot(a, b);
        float na = dot(a, a);
        float nb = dot(b, b);
        if (na == 0 || nb == 0) {
            return 1; // a zero vector has no direction: as far from everything as an orthogonal one
        }
        double cos = dot / (Math.sqrt(na) * Math.sqrt(nb));
        return (float) (1 - Math.max(-1, Math.min(1, cos)));
    }
}
