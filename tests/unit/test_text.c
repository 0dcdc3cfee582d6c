/* test_text.c — unit tests of src/base/text.c: strict UTF-8, control and bidirectional
 * characters refused with what and where, names (labels) checked, and escaping that makes
 * every control character, bidi control and stray byte visible, cut with "..." when long.
 */
#include "testutil.h"

#include "base/text.h"

static void flaw(const char *s, unsigned allow, size_t off, const char *what)
{
    struct text_flaw f;
    assert_int_equal(text_check(s, strlen(s), allow, &f), -1);
    assert_int_equal(f.off, off);
    if (!strstr(f.what, what))
        fail_msg("'%s': got '%s', want '%s'", s, f.what, what);
}

static void test_check(void **state)
{
    (void)state;
    assert_int_equal(text_check("plain ascii", 11, 0, NULL), 0);
    const char *u = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    assert_int_equal(text_check(u, strlen(u), 0, NULL), 0);
    assert_int_equal(text_check("a\nb\r\nc\td", 8, TEXT_ALLOW_NEWLINE | TEXT_ALLOW_TAB, NULL), 0);
    flaw("a\nb", 0, 1, "a line break");
    flaw("a\rb", TEXT_ALLOW_NEWLINE, 1, "a line break"); /* a lone CR rewrites a line */
    flaw("a\tb", TEXT_ALLOW_NEWLINE, 1, "a control character (0x09)");
    flaw("x\x1b[2J", 0, 1, "a control character (0x1b)");
    flaw("x\x7f", 0, 1, "(0x7f)");
    flaw("x\xc2\x85", 0, 1, "(0x85)"); /* C1 NEL */
    flaw("ab\xff", 0, 2, "a byte that is not UTF-8 (0xff)");
    flaw("\xc0\xaf", 0, 0, "not UTF-8");         /* overlong '/' */
    flaw("\xed\xa0\x80", 0, 0, "not UTF-8");     /* surrogate */
    flaw("\xf4\x90\x80\x80", 0, 0, "not UTF-8"); /* above U+10FFFF */
    flaw("\xe2\x82", 0, 0, "not UTF-8");         /* cut short */
    flaw("abc\xe2\x80\xae"
         "cba",
         0, 3, "a bidirectional-text control (U+202E)");
    flaw("\xe2\x81\xa6", 0, 0, "(U+2066)");
    struct text_flaw f;
    assert_int_equal(text_check("a\0b", 3, TEXT_ALLOW_NEWLINE, &f), -1);
    assert_string_equal(f.what, "a NUL byte");
    assert_int_equal(f.off, 1);
    assert_int_equal(text_line_of("a\nb\nc", 4), 3);
    assert_int_equal(text_line_of("abc", 0), 1);
}

static void test_names(void **state)
{
    (void)state;
    char why[128];
    assert_int_equal(text_check_name("witness-on", why, sizeof why), 0);
    assert_int_equal(text_check_name("caf\xc3\xa9", why, sizeof why), 0);
    assert_int_equal(text_check_name("-rf", why, sizeof why), -1);
    assert_string_equal(why, "starts with '-' (it would be read as an option)");
    assert_int_equal(text_check_name("", why, sizeof why), -1);
    assert_int_equal(text_check_name("a\nb", why, sizeof why), -1);
    assert_string_equal(why, "holds a line break");
    assert_int_equal(text_check_name("a\tb", why, sizeof why), -1);
    assert_int_equal(text_check_name("\xff", why, sizeof why), -1);
    assert_int_equal(text_check_name("\xe2\x80\xae"
                                     "x",
                                     why, sizeof why),
                     -1);
}

static void test_escape(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(text_escape(out, sizeof out, "plain caf\xc3\xa9"), "plain caf\xc3\xa9");
    assert_string_equal(text_escape(out, sizeof out, "a\nb\r\tc"), "a\\nb\\r\\tc");
    assert_string_equal(text_escape(out, sizeof out, "\x1b[31mred"), "\\x1b[31mred");
    assert_string_equal(text_escape(out, sizeof out, "x\xe2\x80\xaey"), "x\\u202ey");
    assert_string_equal(text_escape(out, sizeof out, "x\xffy\xc2\x85"), "x\\xffy\\u0085");
    assert_false(text_needs_escape("ok caf\xc3\xa9"));
    assert_true(text_needs_escape("no\n"));
    /* cut on a whole piece, "..." added, never past the buffer */
    char small[8];
    assert_string_equal(text_escape(small, sizeof small, "abcdefghij"), "abcd...");
    assert_string_equal(text_escape(small, sizeof small, "ab\n\n\n"), "ab\\n...");
    assert_string_equal(text_escape(small, sizeof small, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"),
                        "\xc3\xa9\xc3\xa9...");
    /* text_shown: the string itself when clean, an escaped copy otherwise */
    const char *clean = "label";
    assert_ptr_equal(text_shown(clean), clean);
    assert_string_equal(text_shown("a\nforged line"), "a\\nforged line");
    const char *a = text_shown("1\n"), *b = text_shown("2\n");
    assert_string_equal(a, "1\\n");
    assert_string_equal(b, "2\\n");
}

/* text_gets: lines with their newline, the last one without, a long line in pieces. */
static void test_gets(void **state)
{
    (void)state;
    const char *text = "[a]\nkey = 1\nlast";
    char buf[8];
    size_t pos = 0;
    assert_string_equal(text_gets(buf, sizeof buf, text, &pos), "[a]\n");
    assert_string_equal(text_gets(buf, sizeof buf, text, &pos), "key = 1");
    assert_string_equal(text_gets(buf, sizeof buf, text, &pos), "\n");
    assert_string_equal(text_gets(buf, sizeof buf, text, &pos), "last");
    assert_null(text_gets(buf, sizeof buf, text, &pos));
    assert_int_equal(pos, strlen(text));
    pos = 0;
    assert_null(text_gets(buf, 1, text, &pos)); /* no room for a byte and its NUL */
    assert_null(text_gets(buf, sizeof buf, "", &pos));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_gets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
