package dev.kumiko.server.replication;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.replication.GlobalTables;
import dev.kumiko.engine.replication.PeerLink;
import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.engine.replication.ReplicaSettings;
import dev.kumiko.engine.replication.ReplicatedChange;
import dev.kumiko.engine.replication.SettingsChange;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.auth.SigV4Signing;
import dev.kumiko.server.protocol.ReplicaSettingsJson;
import dev.kumiko.server.protocol.ReplicationWire;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A peer region over HTTP: each call is a POST of JSON to the peer's DynamoDB endpoint with target
 * {@code DynamoDB_20120810.Kumiko...} (ReplicationOperations), signed with SigV4 for the peer's region
 * when this server has a key to sign with. A peer that cannot be reached or answers 5xx is
 * {@link PeerLink.Unreachable} (tried again later); a 4xx is the peer's refusal, passed on as its
 * DynamoDB error.
 */
public final class HttpPeerLink implements PeerLink {
    /** How long one call may take: a shipment is at most 100 changes of at most 400 KB each. */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private final String region;
    private final URI endpoint;
    private final @Nullable AccessKey key;
    private final Engine engine;
    private final HttpClient client;

    public HttpPeerLink(String region, URI endpoint, @Nullable AccessKey key, Engine engine, HttpClient client) {
        this.region = region;
        this.endpoint = endpoint.getPath() == null || endpoint.getPath().isEmpty() ? endpoint.resolve("/") : endpoint;
        this.key = key;
        this.engine = engine;
        this.client = client;
    }

    /** Links to every peer, sharing one HTTP client. */
    public static Map<String, PeerLink> all(Map<String, URI> peers, @Nullable AccessKey key, Engine engine) {
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        Map<String, PeerLink> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, URI> e : peers.entrySet()) {
            out.put(e.getKey(), new HttpPeerLink(e.getKey(), e.getValue(), key, engine, client));
        }
        return out;
    }

    @Override
    public void createReplica(String tableName, ReplicaSet set) {
        TableDescriptor d = engine.control()
                .describeTable(new RequestContext(engine.globalTables().region()), tableName)
                .descriptor();
        call("KumikoCreateReplica", ReplicationWire.createReplica(set, CreateTableShape.of(d)));
    }

    @Override
    public void joinGlobalTable(ReplicaSet set) {
        TableDescriptor d = engine.control()
                .describeTable(new RequestContext(engine.globalTables().region()), set.tableName())
                .descriptor();
        call("KumikoJoinGlobalTable", ReplicationWire.joinGlobalTable(set, GlobalTables.keySignature(d)));
    }

    @Override
    public void deleteReplica(String tableName) {
        call("KumikoDeleteReplica", ReplicationWire.tableName(tableName));
    }

    @Override
    public void publish(ReplicaSet set) {
        call("KumikoPublishReplicas", ReplicationWire.replicaSet(set));
    }

    @Override
    public ReplicaSettings settings(String tableName, @Nullable SettingsChange change) {
        return ReplicaSettingsJson.read(call("KumikoReplicaSettings", ReplicaSettingsJson.request(tableName, change)));
    }

    @Override
    public void apply(String tableName, List<ReplicatedChange> changes) {
        call("KumikoReplicateChanges", ReplicationWire.replicateChanges(tableName, changes));
    }

    /** POSTs body as operation; answers the peer's 200 body. */
    private String call(String operation, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "DynamoDB_20120810." + operation)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        // A server without --auth=sigv4 still wants a signature's shape (as DynamoDB Local does): a
        // placeholder key then, which it does not verify.
        AccessKey k = key;
        if (k != null) {
            sign(b, operation, body, k.accessKeyId(), k.secretAccessKey(), k.sessionToken());
        } else {
            sign(b, operation, body, "kumiko-replication", "unverified", null);
        }
        HttpResponse<String> response;
        try {
            response = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Unreachable(region + " at " + endpoint + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable(region + ": interrupted", e);
        }
        int status = response.statusCode();
        if (status >= 500 || status == 429) {
            throw new Unreachable(region + " answered " + status + ": " + response.body(), null);
        }
        if (status != 200) {
            throw DynamoException.validation("Region " + region + " refused " + operation + ": " + response.body());
        }
        return response.body();
    }

    /** SigV4 over host, x-amz-date and x-amz-target, for the peer's region and service dynamodb. */
    private void sign(
            HttpRequest.Builder b,
            String operation,
            byte[] body,
            String accessKeyId,
            String secretAccessKey,
            @Nullable String token) {
        String amzDate = AMZ_DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
        String date = amzDate.substring(0, 8);
        String host = endpoint.getPort() < 0 ? endpoint.getHost() : endpoint.getHost() + ":" + endpoint.getPort();
        String target = "DynamoDB_20120810." + operation;
        String signedHeaders = "host;x-amz-date;x-amz-target";
        String canonicalHeaders = "host:" + host + "\nx-amz-date:" + amzDate + "\nx-amz-target:" + target + "\n";
        String canonical = SigV4Signing.canonicalRequest(
                "POST",
                SigV4Signing.canonicalUri(endpoint.getRawPath()),
                "",
                canonicalHeaders,
                signedHeaders,
                SigV4Signing.sha256Hex(body));
        String scope = date + "/" + region + "/dynamodb/" + SigV4Signing.TERMINATOR;
        String signature = SigV4Signing.signature(
                SigV4Signing.signingKey(secretAccessKey, date, region, "dynamodb"),
                SigV4Signing.stringToSign(amzDate, scope, canonical));
        b.header("X-Amz-Date", amzDate);
        b.header(
                "Authorization",
                SigV4Signing.ALGORITHM + " Credential=" + accessKeyId + "/" + scope + ", SignedHeaders=" + signedHeaders
                        + ", Signature=" + signature);
        if (token != null) {
            b.header("X-Amz-Security-Token", token);
        }
    }
}
