package dev.kumiko.server.console;

import java.util.List;

/**
 * The console's layout checks, run in the page: an element whose content is wider than its box
 * (scrollWidth past clientWidth) runs off the page or crushes its neighbours (issue #63). Scrolling
 * boxes made for it (a table's {@code .scroll-x} wrapper, a {@code pre}) clip their content, so
 * their parents stay within bounds and only those parents are checked.
 */
final class Layout {
    /** The page's containers: the document, the shell, the columns, cards, forms and answers. */
    static final String CONTAINERS = "html, body, #shell, #page, #view, form, .cols > *, .card, .grid, .answer,"
            + " .entity-group, .code, details, fieldset";

    /** A pixel of rounding: Chromium rounds fractional widths either way. */
    private static final int SLACK_PIXELS = 1;

    private Layout() {}

    /** The visible containers wider inside than out, each as "tag#id.class 1490 > 1016". */
    @SuppressWarnings("unchecked")
    static List<Object> overflows(Chromium browser) {
        return (List<Object>)
                browser.eval("(() => { const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')"
                        + " + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '');"
                        + " return Array.from(document.querySelectorAll('" + CONTAINERS + "'))"
                        + ".filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + " + SLACK_PIXELS
                        + ")"
                        + ".map(e => name(e) + ' ' + e.scrollWidth + ' > ' + e.clientWidth); })()");
    }

    /** The width in CSS pixels of the first element the selector finds. */
    static double width(Chromium browser, String selector) {
        return Double.parseDouble(String.valueOf(browser.eval(
                "document.querySelector(" + ConsoleBrowserTest.js(selector) + ").getBoundingClientRect().width")));
    }
}
