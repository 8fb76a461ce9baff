package dev.kumiko.ignite;

import java.util.ResourceBundle;

/**
 * The Ignite client's log, kept to errors. The client logs every aborted transaction with a
 * stack trace at WARNING; aborts are normal here (the engine retries them), and a busy server
 * would write little else.
 */
final class QuietLogger implements System.Logger {
    private final System.Logger inner;

    private QuietLogger(System.Logger inner) {
        this.inner = inner;
    }

    static System.Logger forName(String name) {
        return new QuietLogger(System.getLogger(name));
    }

    @Override
    public String getName() {
        return inner.getName();
    }

    @Override
    public boolean isLoggable(Level level) {
        return level.getSeverity() >= Level.ERROR.getSeverity() && inner.isLoggable(level);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        if (isLoggable(level)) {
            inner.log(level, bundle, msg, thrown);
        }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        if (isLoggable(level)) {
            inner.log(level, bundle, format, params);
        }
    }
}
