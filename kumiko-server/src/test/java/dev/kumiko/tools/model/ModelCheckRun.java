package dev.kumiko.tools.model;

import dev.kumiko.server.cli.Main;
import dev.kumiko.server.json.JsonTree;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One run of {@code kumiko model check} through the CLI's entry point, with its exit code and output. */
record ModelCheckRun(int exitCode, String out, String err) {
    static final Path EXAMPLES =
            Path.of("..", "examples", "models").toAbsolutePath().normalize();

    static ModelCheckRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 2];
        all[0] = "model";
        all[1] = "check";
        System.arraycopy(args, 0, all, 2, args.length);
        int code = Main.commandLine(all)
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(all);
        return new ModelCheckRun(code, out.toString(), err.toString());
    }

    static String example(String file) {
        return EXAMPLES.resolve(file).toString();
    }

    /** The --format json report. */
    Map<String, Object> json() {
        byte[] bytes = out.getBytes(StandardCharsets.UTF_8);
        return JsonTree.parseObject(bytes, 0, bytes.length);
    }

    /** A design in the --format json report. */
    @SuppressWarnings("unchecked")
    Map<String, Object> design(String name) {
        for (Object d : (List<Object>) json().get("designs")) {
            if (((Map<String, Object>) d).get("name").equals(name)) {
                return (Map<String, Object>) d;
            }
        }
        throw new AssertionError("no design " + name + " in " + out);
    }

    /** A pattern of a design in the --format json report. */
    @SuppressWarnings("unchecked")
    Map<String, Object> pattern(String design, String pattern) {
        for (Object d : (List<Object>) json().get("designs")) {
            Map<String, Object> dm = (Map<String, Object>) d;
            if (dm.get("name").equals(design)) {
                for (Object p : (List<Object>) dm.get("accessPatterns")) {
                    Map<String, Object> pm = (Map<String, Object>) p;
                    if (pm.get("name").equals(pattern)) {
                        return pm;
                    }
                }
            }
        }
        throw new AssertionError("no pattern " + design + "/" + pattern + " in " + out);
    }

    static double number(Object o) {
        return Double.parseDouble(((dev.kumiko.server.json.JsonNumber) o).text());
    }
}
