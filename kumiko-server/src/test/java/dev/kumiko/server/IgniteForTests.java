package dev.kumiko.server;

import dev.kumiko.storage.ForwardingStore;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreProvider;
import dev.kumiko.storage.memory.MemoryStore;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The Ignite store for the server suite ({@code -Dkumiko.test.store=ignite}): every test server
 * connects to one running cluster, named by {@value #ENDPOINTS_PROPERTY}, and starts on an emptied
 * store, as on a new one. One cluster holds one store's data, so a server opened while another is
 * open (a test that starts a second server of its own, to have a store to itself) gets the memory
 * store instead: on the cluster it would either empty the first server's tables or see them. The store comes from kumiko-ignite's client jar ({@value #JAR_PROPERTY}),
 * loaded the way {@code kumiko serve --store ignite} finds it: a {@link StoreProvider} by
 * {@link ServiceLoader}, so the server's test class path stays free of Ignite's client.
 *
 * <p>{@code bin/kumiko ignite start --nodes 1 --base-port 10300 --work-dir /tmp/suite-ignite}, then
 * {@code mvn test -pl kumiko-server -Dkumiko.test.store=ignite
 * -Dkumiko.test.ignite.endpoints=127.0.0.1:10301
 * -Dkumiko.test.ignite.jar=$PWD/kumiko-ignite/target/kumiko-ignite-0.9.0-client.jar}.
 */
final class IgniteForTests {
    static final String ENDPOINTS_PROPERTY = "kumiko.test.ignite.endpoints";
    static final String JAR_PROPERTY = "kumiko.test.ignite.jar";
    /** Every storage key starts with a key-space byte below this (KeySpace). */
    private static final byte[] ALL_KEYS_START = {0};

    private static final byte[] ALL_KEYS_END = {(byte) 0xFF};

    private IgniteForTests() {}

    /** Stores of this class open now; guarded by the class. */
    private static int openStores;

    /**
     * A store on the suite's cluster with every key of earlier tests deleted; the memory store when
     * a store of the cluster is open already (see the class comment).
     */
    static synchronized Store freshStore() {
        if (openStores > 0) {
            return new MemoryStore();
        }
        Store store = provider().open(Map.of("endpoints", required(ENDPOINTS_PROPERTY)));
        store.deleteRange(ALL_KEYS_START, ALL_KEYS_END);
        openStores++;
        return new ForwardingStore(store) {
            private boolean closed;

            @Override
            public void close() {
                try {
                    super.close();
                } finally {
                    if (!closed) {
                        closed = true;
                        released();
                    }
                }
            }
        };
    }

    private static synchronized void released() {
        openStores--;
    }

    private static StoreProvider provider() {
        Path jar = Path.of(required(JAR_PROPERTY));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(JAR_PROPERTY + " names no file: " + jar);
        }
        try {
            // Not closed: the provider's classes are used for the rest of the run.
            URLClassLoader loader =
                    new URLClassLoader(new URL[] {jar.toUri().toURL()}, IgniteForTests.class.getClassLoader());
            for (StoreProvider p : ServiceLoader.load(StoreProvider.class, loader)) {
                if (p.name().equals("ignite")) {
                    return p;
                }
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException(jar + " has no StoreProvider named ignite");
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("-D" + TestServer.STORE_PROPERTY + "=ignite needs -D" + property);
        }
        return value;
    }
}
