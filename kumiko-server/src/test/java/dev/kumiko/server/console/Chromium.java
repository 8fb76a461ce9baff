package dev.kumiko.server.console;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.server.json.JsonTree;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium driven over the DevTools protocol with the JDK's own WebSocket client: no
 * WebDriver, no extra dependency. Enough for the console's tests: navigate, evaluate JavaScript,
 * wait for a condition, take a screenshot, list the responses that failed.
 */
final class Chromium implements AutoCloseable {
    static final Path DEFAULT_BINARY = Path.of("/usr/bin/chromium");
    static final int WIDTH = 1280;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** Walks of the profile directory at close: a helper's late file survives at most one. */
    private static final int PROFILE_DELETE_ATTEMPTS = 3;

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");
    private static final JsonFactory JSON = new JsonFactory();

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    /** Every response with an HTTP status of 400 or more the page received: "404 http://...". */
    private final List<String> failedResponses = new CopyOnWriteArrayList<>();

    /** The Chromium binary: $KUMIKO_CHROMIUM, else Debian's /usr/bin/chromium; null when absent. */
    static Path binary() {
        String env = System.getenv("KUMIKO_CHROMIUM");
        Path p = env != null && !env.isBlank() ? Path.of(env) : DEFAULT_BINARY;
        return Files.isExecutable(p) ? p : null;
    }

    Chromium(Path binary) throws Exception {
        profile = Files.createTempDirectory("kumiko-chromium");
        process = new ProcessBuilder(
                        binary.toString(),
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--no-default-browser-check",
                        "--hide-scrollbars",
                        "--remote-debugging-address=127.0.0.1",
                        "--remote-debugging-port=0",
                        "--user-data-dir=" + profile,
                        "--window-size=" + WIDTH + ",900",
                        "about:blank")
                .redirectErrorStream(true)
                .start();
        String browserUrl = awaitListening();
        String pageUrl = pageWebSocket(browserUrl);
        socket = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .buildAsync(URI.create(pageUrl), new Listener())
                .get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        call("Page.enable", Map.of());
        call("Runtime.enable", Map.of());
        call("Network.enable", Map.of());
    }

    /**
     * The binary, or the test is skipped when Chromium is absent; in CI (CI set) its absence fails
     * instead: CI installs Chromium, so a missing one there is a broken setup, not a reason to pass.
     */
    static Path requireBinary() {
        Path binary = binary();
        String ci = System.getenv("CI");
        boolean inCi = ci != null && !ci.isBlank() && !"false".equalsIgnoreCase(ci);
        if (binary == null && inCi) {
            throw new AssertionError("CI is set but Chromium is missing (" + DEFAULT_BINARY
                    + " or $KUMIKO_CHROMIUM): .ci/run installs Debian's chromium");
        }
        Assumptions.assumeTrue(
                binary != null,
                "Chromium not found (" + DEFAULT_BINARY
                        + " or $KUMIKO_CHROMIUM): the console's browser tests are skipped; apt-get install chromium");
        return binary;
    }

    /** The responses of 400 or more received since the browser started (the favicon's among them). */
    List<String> failedResponses() {
        return List.copyOf(failedResponses);
    }

    private String awaitListening() throws IOException {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        StringBuilder seen = new StringBuilder();
        String line;
        while (System.nanoTime() < deadline && (line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "chromium-output");
                drain.setDaemon(true);
                drain.start();
                return m.group(1);
            }
        }
        throw new IOException("Chromium did not start its DevTools server:\n" + seen);
    }

    /** The first page's WebSocket, from the DevTools HTTP endpoint's target list. */
    @SuppressWarnings("unchecked")
    private static String pageWebSocket(String browserUrl) throws IOException, InterruptedException {
        URI ws = URI.create(browserUrl);
        URI list = URI.create("http://" + ws.getHost() + ":" + ws.getPort() + "/json/list");
        String body = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(list).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        byte[] wrapped = ("{\"targets\":" + body + "}").getBytes(StandardCharsets.UTF_8);
        for (Object t :
                (List<Object>) JsonTree.parseObject(wrapped, 0, wrapped.length).get("targets")) {
            Map<String, Object> target = (Map<String, Object>) t;
            if ("page".equals(target.get("type"))) {
                return (String) target.get("webSocketDebuggerUrl");
            }
        }
        throw new IOException("Chromium has no page target: " + body);
    }

    /** Sends one DevTools command and waits for its result. */
    @SuppressWarnings("unchecked")
    Map<String, Object> call(String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        pending.put(id, answer);
        socket.sendText(message(id, method, params), true).join();
        try {
            Map<String, Object> m = answer.get(60, TimeUnit.SECONDS);
            if (m.containsKey("error")) {
                throw new IllegalStateException(method + " failed: " + m.get("error"));
            }
            return (Map<String, Object>) m.get("result");
        } catch (Exception e) {
            throw new IllegalStateException(method + " got no answer", e);
        } finally {
            pending.remove(id);
        }
    }

    void navigate(String url) {
        call("Page.navigate", Map.of("url", url));
    }

    /** Evaluates an expression (awaiting a promise) and returns its value as JSON would give it. */
    @SuppressWarnings("unchecked")
    Object eval(String expression) {
        Map<String, Object> r =
                call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (r.containsKey("exceptionDetails")) {
            throw new IllegalStateException("JavaScript failed: " + r.get("exceptionDetails"));
        }
        Object value = ((Map<String, Object>) r.get("result")).get("value");
        return value instanceof dev.kumiko.server.json.JsonNumber n ? n.text() : value;
    }

    /** Waits until the expression is truthy; fails with the page's text after the timeout. */
    void waitFor(String expression, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Boolean.TRUE.equals(eval("!!(" + expression + ")"))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(
                "Timed out waiting for " + expression + "; the page shows:\n" + eval("document.body.innerText"));
    }

    /** A PNG of the whole page at {@link #WIDTH} pixels wide. */
    @SuppressWarnings("unchecked")
    byte[] screenshot() {
        Object height = eval("Math.min(1400, Math.max(700, document.documentElement.scrollHeight))");
        int h = (int) Double.parseDouble(String.valueOf(height));
        call(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", WIDTH, "height", h, "deviceScaleFactor", 1, "mobile", false));
        Map<String, Object> r = call("Page.captureScreenshot", Map.of("format", "png"));
        call("Emulation.clearDeviceMetricsOverride", Map.of());
        return Base64.getDecoder().decode((String) r.get("data"));
    }

    private static String message(int id, String method, Map<String, Object> params) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeNumberField("id", id);
            g.writeStringField("method", method);
            g.writeFieldName("params");
            writeValue(g, params);
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return w.toString();
    }

    @SuppressWarnings("unchecked")
    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
                g.writeFieldName(e.getKey());
                writeValue(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else {
            throw new IllegalArgumentException("unsupported parameter " + v);
        }
    }

    /** Collects frames into messages and completes the command each answers; events are ignored. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                byte[] bytes = partial.toString().getBytes(StandardCharsets.UTF_8);
                partial.setLength(0);
                Map<String, Object> m;
                try {
                    m = JsonTree.parseObject(bytes, 0, bytes.length);
                } catch (RuntimeException e) {
                    System.err.println("chromium: unreadable message (" + e + "): "
                            + new String(bytes, 0, Math.min(bytes.length, 300), StandardCharsets.UTF_8));
                    ws.request(1);
                    return null;
                }
                if ("Network.responseReceived".equals(m.get("method"))) {
                    recordFailure(m);
                }
                Object id = m.get("id");
                if (id instanceof dev.kumiko.server.json.JsonNumber n) {
                    CompletableFuture<Map<String, Object>> f = pending.get(Integer.parseInt(n.text()));
                    if (f != null) {
                        f.complete(m);
                    }
                }
            }
            ws.request(1);
            return null;
        }

        @SuppressWarnings("unchecked")
        private void recordFailure(Map<String, Object> event) {
            Map<String, Object> response =
                    (Map<String, Object>) ((Map<String, Object>) event.get("params")).get("response");
            int status = (int) Double.parseDouble(String.valueOf(
                    response.get("status") instanceof dev.kumiko.server.json.JsonNumber n
                            ? n.text()
                            : response.get("status")));
            if (status >= 400) {
                failedResponses.add(status + " " + response.get("url"));
            }
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            System.err.println("chromium: DevTools connection failed: " + error);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "")
                    .orTimeout(2, TimeUnit.SECONDS)
                    .exceptionally(e -> null);
        } finally {
            // Chromium's helper processes (network service, zygote) write into the profile too and
            // can outlive the browser process by a moment: stop and wait for them as well, or the
            // profile's deletion below races with their last writes.
            List<ProcessHandle> helpers = process.descendants().toList();
            process.destroy();
            helpers.forEach(ProcessHandle::destroy);
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
                for (ProcessHandle helper : helpers) {
                    helper.onExit().get(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                helpers.forEach(ProcessHandle::destroyForcibly);
            }
            deleteProfile();
        }
    }

    /**
     * Deletes the profile directory; a file that vanishes meanwhile (a helper's temporary file,
     * renamed into place) is skipped, and the walk is repeated until the directory is gone.
     */
    private void deleteProfile() throws IOException {
        for (int attempt = 0; attempt < PROFILE_DELETE_ATTEMPTS && Files.exists(profile); attempt++) {
            Files.walkFileTree(profile, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                    dir.toFile().delete(); // false while a late file is still in it: the next attempt
                    return FileVisitResult.CONTINUE;
                }
            });
        }
    }
}
