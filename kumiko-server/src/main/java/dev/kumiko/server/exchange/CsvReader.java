package dev.kumiko.server.exchange;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Records of CSV text (RFC 4180): fields split by a one-character delimiter, a field in double
 * quotes may hold the delimiter, line breaks and doubled quotes. Lines end in LF or CRLF.
 */
final class CsvReader {
    /** A bound on one field, so a missing closing quote cannot take all memory. */
    static final int FIELD_CHARS_MAX = 1 << 20;

    private final Reader in;
    private final char delimiter;
    private int pushedBack = -2;

    CsvReader(Reader in, char delimiter) {
        this.in = in;
        this.delimiter = delimiter;
    }

    /** The next record's fields, or null at the end of the text. */
    @Nullable
    List<String> next() throws IOException {
        int c = read();
        if (c == -1) {
            return null;
        }
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        while (true) {
            if (c == -1) {
                if (quoted) {
                    throw new IllegalArgumentException("a quoted field is not closed before the end of the file");
                }
                fields.add(field.toString());
                return fields;
            }
            char ch = (char) c;
            if (quoted) {
                if (ch == '"') {
                    int n = read();
                    if (n == '"') {
                        field.append('"');
                    } else {
                        quoted = false;
                        c = n;
                        continue;
                    }
                } else {
                    field.append(ch);
                }
            } else if (ch == '"' && field.length() == 0 && !wasQuoted) {
                quoted = true;
                wasQuoted = true;
            } else if (ch == delimiter) {
                fields.add(field.toString());
                field.setLength(0);
                wasQuoted = false;
            } else if (ch == '\n' || ch == '\r') {
                if (ch == '\r') {
                    int n = read();
                    if (n != '\n') {
                        pushedBack = n;
                    }
                }
                fields.add(field.toString());
                return fields;
            } else {
                field.append(ch);
            }
            if (field.length() > FIELD_CHARS_MAX) {
                throw new IllegalArgumentException("a field longer than " + FIELD_CHARS_MAX + " characters");
            }
            c = read();
        }
    }

    private int read() throws IOException {
        if (pushedBack != -2) {
            int c = pushedBack;
            pushedBack = -2;
            return c;
        }
        return in.read();
    }
}
