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

    static float dot(float[] a, float[] b) {
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    static float squaredDistance(float[] a, float[] b) {
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            float d = a[i] - b[i];
            sum += d * d;
        }
        return sum;
    }

    private static float cosineDistance(float[] a, float[] b) {
        float dot = 0;
        float na = 0;
        float nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        if (na == 0 || nb == 0) {
            return 1; // a zero vector has no direction: as far from everything as an orthogonal one
        }
        double cos = dot / (Math.sqrt(na) * Math.sqrt(nb));
        return (float) (1 - Math.max(-1, Math.min(1, cos)));
    }
}
