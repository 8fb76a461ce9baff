package dev.kumiko.server.replication;

import dev.kumiko.engine.replication.Stamp;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --peer REGION=URL} options: each peer region's endpoint, checked. */
public final class Peers {
    /** A bound on peers: DynamoDB has about 30 regions. */
    public static final int PEERS_MAX = 32;

    private Peers() {}

    /** A --peer value that cannot be used: the message is the one line the CLI prints. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /** Parses the values of --peer given alongside --region localRegion; region to endpoint, in order. */
    public static Map<String, URI> parse(List<String> values, String localRegion) throws Invalid {
        if (values.size() > PEERS_MAX) {
            throw new Invalid("--peer is given at most " + PEERS_MAX + " times");
        }
        if (!values.isEmpty() && !validRegion(localRegion)) {
            throw new Invalid("--region " + localRegion + " cannot have peers: a region name is 1 to "
                    + Stamp.REGION_BYTES_MAX + " letters, digits and '-'");
        }
        Map<String, URI> out = new LinkedHashMap<>();
        for (String v : values) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new Invalid(
                        "--peer must be REGION=URL, e.g. --peer eu-west-1=http://127.0.0.1:8001, not '" + v + "'");
            }
            String region = v.substring(0, eq);
            if (!validRegion(region)) {
                throw new Invalid("--peer " + v + ": a region name is 1 to " + Stamp.REGION_BYTES_MAX
                        + " letters, digits and '-', not '" + region + "'");
            }
            if (region.equals(localRegion)) {
                throw new Invalid("--peer " + v + ": " + region + " is this server's own --region");
            }
            URI uri = endpoint(v, v.substring(eq + 1));
            if (out.putIfAbsent(region, uri) != null) {
                throw new Invalid("--peer " + region + " is given twice");
            }
        }
        return out;
    }

    /** Whether a region name can take part in global tables (and be a --peer's name). */
    public static boolean validRegion(String region) {
        if (region.isEmpty() || region.length() > Stamp.REGION_BYTES_MAX) {
            return false;
        }
        for (int i = 0; i < region.length(); i++) {
            char c = region.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static URI endpoint(String option, String text) throws Invalid {
        URI uri;
        try {
            uri = new URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new Invalid("--peer " + option + ": '" + text + "' is not a URL");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new Invalid("--peer " + option + ": the URL must be http://HOST:PORT or https://HOST:PORT");
        }
        return uri;
    }
}
