package dev.kumiko.server.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/** The server's TLS context from PEM files, with the JDK's TLS (no native library, no BouncyCastle). */
public final class TlsContexts {
    private TlsContexts() {}

    /** A certificate or key that cannot be used; the message names the file, for a one-line startup error. */
    public static final class Invalid extends RuntimeException {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * @param certPem the certificate chain, leaf first
     * @param keyPem  its unencrypted PKCS#8 private key ("BEGIN PRIVATE KEY")
     */
    public static SslContext server(Path certPem, Path keyPem) {
        readable("--tls-cert", certPem);
        readable("--tls-key", keyPem);
        try {
            return SslContextBuilder.forServer(certPem.toFile(), keyPem.toFile())
                    .sslProvider(SslProvider.JDK)
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new Invalid("--tls-cert " + certPem + " / --tls-key " + keyPem + ": not a usable PEM certificate "
                    + "and PKCS#8 private key (" + rootMessage(e) + ")");
        }
    }

    private static void readable(String option, Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new Invalid(option + " " + file + ": no such readable file");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
