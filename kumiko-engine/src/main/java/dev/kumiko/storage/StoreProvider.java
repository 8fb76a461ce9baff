package dev.kumiko.storage;

import java.util.Map;

/**
 * A store reached through a module that the server does not link against (a distributed engine's
 * client), found with {@link java.util.ServiceLoader} by {@link #name} when a server starts with
 * {@code --store NAME}. This keeps the server's default class path free of every engine's client,
 * and lets another engine (FoundationDB, TiKV...) be added as one more module and one more name.
 */
public interface StoreProvider {

    /** The name given to {@code --store}, e.g. {@code ignite}. */
    String name();

    /**
     * Connects to the store. options holds the provider's settings by name (for Ignite:
     * {@code endpoints}, a comma-separated host:port list); a missing or malformed one is an
     * IllegalArgumentException whose message names it.
     */
    Store open(Map<String, String> options);
}
