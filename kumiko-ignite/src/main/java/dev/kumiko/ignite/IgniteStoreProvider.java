package dev.kumiko.ignite;

import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** {@code kumiko serve --store ignite --ignite-endpoints host:port[,host:port...]}. */
public final class IgniteStoreProvider implements StoreProvider {
    public static final String ENDPOINTS = "endpoints";

    @Override
    public String name() {
        return "ignite";
    }

    @Override
    public Store open(Map<String, String> options) {
        String endpoints = options.get(ENDPOINTS);
        if (endpoints == null || endpoints.isBlank()) {
            throw new IllegalArgumentException("--store ignite needs --ignite-endpoints host:port[,host:port...]");
        }
        List<String> list = Arrays.stream(endpoints.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        return IgniteStore.connect(list);
    }
}
