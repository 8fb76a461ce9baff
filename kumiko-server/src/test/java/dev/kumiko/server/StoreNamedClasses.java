package dev.kumiko.server;

import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Names each test class after the store the suite runs on, as {@code dev.kumiko.server.QueryTest
 * [rocksdb]}, so that a failure read in a log says which run it came from: the suite runs once per
 * store in CI. The store is the suite's ({@link TestServer#STORE_PROPERTY}); a test that asks for
 * RocksDB or the remote store by name runs on that one in every run. Set for the module in
 * junit-platform.properties; the module's pom has Surefire print these names.
 */
public final class StoreNamedClasses extends DisplayNameGenerator.Standard {
    @Override
    public String generateDisplayNameForClass(Class<?> testClass) {
        return testClass.getName() + " [" + TestServer.chosenStoreName() + "]";
    }
}
