package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Report.DesignResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The report as JUnit XML ({@code --format junit}), the test-report format that GitHub Actions, GitLab,
 * Jenkins and others display: one test suite per design, one test case per access pattern, a failure
 * for each broken budget and for a read that found nothing. The file's shape is Ant's JUnit report
 * (testsuites, testsuite, testcase, failure, system-out), which every one of those reads.
 */
final class ReportJunit {
    static final String FAILURE_BUDGET = "budget";
    static final String FAILURE_FOUND_NOTHING = "found-nothing";
    static final String ERROR_CANNOT_CHECK = "cannot-check";

    private ReportJunit() {}

    static String render(Report report) {
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        int tests = 0;
        int failures = 0;
        for (DesignResult d : report.designs()) {
            tests += d.patterns().size();
            failures += (int) d.patterns().stream().filter(ReportJunit::failed).count();
        }
        out.append("<testsuites name=\"")
                .append(xml("kumiko model check: " + report.model().name()))
                .append("\" tests=\"")
                .append(tests)
                .append("\" failures=\"")
                .append(failures)
                .append("\">\n");
        for (DesignResult d : report.designs()) {
            suite(out, report, d);
        }
        return out.append("</testsuites>\n").toString();
    }

    /** A report of a check that could not run: one test case, in error, whose message is the error's line. */
    static String error(String modelFile, String message) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuites name=\"" + xml("kumiko model check: " + modelFile) + "\" tests=\"1\" failures=\"0\" "
                + "errors=\"1\">\n"
                + "  <testsuite name=\"" + xml(modelFile)
                + "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
                + "    <testcase classname=\"model\" name=\"" + xml(modelFile) + "\" time=\"0\">\n"
                + "      <error type=\"" + ERROR_CANNOT_CHECK + "\" message=\"" + xml(message) + "\">" + xml(message)
                + "</error>\n"
                + "    </testcase>\n"
                + "  </testsuite>\n"
                + "</testsuites>\n";
    }

    private static void suite(StringBuilder out, Report report, DesignResult d) {
        long failures = d.patterns().stream().filter(ReportJunit::failed).count();
        String name = d.design().name().equals(report.model().name())
                ? d.design().name()
                : report.model().name() + " / " + d.design().name();
        out.append("  <testsuite name=\"")
                .append(xml(name))
                .append("\" tests=\"")
                .append(d.patterns().size())
                .append("\" failures=\"")
                .append(failures)
                .append("\" errors=\"0\" skipped=\"0\">\n");
        for (PatternResult p : d.patterns()) {
            testCase(out, d, p);
        }
        out.append("  </testsuite>\n");
    }

    private static void testCase(StringBuilder out, DesignResult d, PatternResult p) {
        out.append("    <testcase classname=\"")
                .append(xml("model." + d.design().name()))
                .append("\" name=\"")
                .append(xml(p.pattern().name()))
                .append("\" time=\"0\">\n");
        for (String v : p.violations()) {
            failure(out, FAILURE_BUDGET, "budget exceeded: " + v);
        }
        if (p.missedTheData()) {
            failure(out, FAILURE_FOUND_NOTHING, "found nothing: its keys miss the sample data");
        }
        out.append("      <system-out>").append(xml(measured(p))).append("</system-out>\n");
        out.append("    </testcase>\n");
    }

    private static void failure(StringBuilder out, String type, String message) {
        out.append("      <failure type=\"")
                .append(type)
                .append("\" message=\"")
                .append(xml(message))
                .append("\">")
                .append(xml(message))
                .append("</failure>\n");
    }

    /** What was measured, as the text report's row says it, for the CI page that shows the test. */
    private static String measured(PatternResult p) {
        List<String> parts = new ArrayList<>();
        parts.add(Report.operations(p.pattern()));
        parts.add("requests " + p.requests());
        parts.add("items read " + p.itemsRead());
        parts.add("returned " + p.itemsReturned());
        parts.add("RCU " + Report.number(p.rcu()));
        parts.add("WCU " + Report.number(p.wcu()));
        if (!p.flags().isEmpty()) {
            parts.add("flags " + String.join(", ", p.flags()));
        }
        return String.join("; ", parts);
    }

    private static boolean failed(PatternResult p) {
        return !p.violations().isEmpty() || p.missedTheData();
    }

    /** Text for an XML attribute or element: the five markup characters escaped, control characters dropped. */
    static String xml(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
