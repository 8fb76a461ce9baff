package dev.kumiko.engine;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.engine.changelog.ChangeLog;

/**
 * What tests read inside an engine that its public surface does not hand out: the catalog mirror
 * and the change log. In the engine's test jar only.
 */
public final class EngineInternals {
    private EngineInternals() {}

    public static Catalog catalog(Engine engine) {
        return engine.catalog();
    }

    public static ChangeLog changeLog(Engine engine) {
        return engine.changeLog();
    }
}
