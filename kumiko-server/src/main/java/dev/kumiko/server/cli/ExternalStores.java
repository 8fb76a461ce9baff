package dev.kumiko.server.cli;

import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreProvider;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Stores from modules the server jar does not contain (kumiko-ignite), found by name on the
 * class path: {@code serve --store ignite} runs with lib/ignite added by bin/kumiko.
 */
final class ExternalStores {
    private ExternalStores() {}

    /** Why a store did not open, with the exit code serve answers (2: bad options). */
    static final class Failure extends Exception {
        final int exitCode;

        Failure(String message, int exitCode) {
            super(message, null, false, false);
            this.exitCode = exitCode;
        }
    }

    /** Opens the named store; a Failure when no module provides it or it cannot connect. */
    static Store open(String name, Map<String, String> options) throws Failure {
        for (StoreProvider provider : ServiceLoader.load(StoreProvider.class)) {
            if (provider.name().equals(name)) {
                try {
                    return provider.open(options);
                } catch (IllegalArgumentException e) {
                    throw new Failure(e.getMessage(), 2);
                } catch (RuntimeException e) {
                    throw new Failure(
                            "cannot connect to the " + name + " store: " + e.getMessage(),
                            StartupChecks.EXIT_UNAVAILABLE);
                }
            }
        }
        throw new Failure(
                "--store must be memory, rocksdb or ignite: " + name
                        + ("ignite".equals(name)
                                ? " (its module is not on the class path: run through bin/kumiko)"
                                : ""),
                2);
    }
}
